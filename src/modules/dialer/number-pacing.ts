import type { PhoneNumberRow } from '../phones/phones.schema';

/** The pacing window a number's next slot must start in to be used by this tick. */
export const PACING_WINDOW_MS = 1_000;

type PacedNumber = Pick<PhoneNumberRow, 'id' | 'nextDialAt'> &
  Partial<Pick<PhoneNumberRow, 'providerAccountId'>>;

/** A provider account's budget as the claim read it, under the account row's lock. */
export interface AccountPace {
  id: string;
  callsPerSecond: number;
  nextDialAt: Date | null;
}

export interface PacingSlot<P> {
  phone: P;
  at: Date;
  /** The number's next slot. */
  next: Date;
  /** The account's next slot, when the number's account is paced. */
  account?: { id: string; next: Date };
}

interface Clock {
  at: number;
  intervalMs: number;
}

/**
 * Rotation and pacing over a batch's numbers: each call takes the number whose next slot comes
 * first, if that slot starts within this tick's second; the number's next slot is then
 * 1/DIALER_CALLS_PER_SECOND later. A number shared by batches of the organization is paced
 * once: its slot is stored on the number, under the organization's lock. A number's call also
 * needs its provider account's slot (the account's calls per second, shared by all its numbers
 * in every organization, stored on the account under that row's lock): a slot is the later of
 * the two.
 */
export class NumberPacing<P extends PacedNumber> {
  private readonly slots: Array<{ phone: P; clock: Clock; account?: Clock & { id: string } }>;
  private readonly now: number;

  constructor(numbers: P[], now: Date, callsPerSecond: number, accounts: AccountPace[] = []) {
    const start = (at: Date | null) => Math.max(now.getTime(), at?.getTime() ?? 0);
    this.now = now.getTime();
    const accountClocks = new Map(
      accounts.map((account) => [
        account.id,
        {
          id: account.id,
          at: start(account.nextDialAt),
          intervalMs: 1000 / account.callsPerSecond,
        },
      ]),
    );
    this.slots = numbers.map((phone) => ({
      phone,
      clock: { at: start(phone.nextDialAt), intervalMs: 1000 / callsPerSecond },
      account: phone.providerAccountId ? accountClocks.get(phone.providerAccountId) : undefined,
    }));
  }

  take(): PacingSlot<P> | undefined {
    let best: (typeof this.slots)[number] | undefined;
    let bestAt = Infinity;
    for (const slot of this.slots) {
      const at = Math.max(slot.clock.at, slot.account?.at ?? 0);
      if (at < bestAt) [best, bestAt] = [slot, at];
    }
    if (!best || bestAt >= this.now + PACING_WINDOW_MS) return undefined;
    // Whole milliseconds, rounded up: a budget is never overrun by a fraction's drift.
    best.clock.at = Math.ceil(bestAt + best.clock.intervalMs);
    const taken: PacingSlot<P> = {
      phone: best.phone,
      at: new Date(bestAt),
      next: new Date(best.clock.at),
    };
    if (best.account) {
      best.account.at = Math.ceil(bestAt + best.account.intervalMs);
      taken.account = { id: best.account.id, next: new Date(best.account.at) };
    }
    return taken;
  }
}
