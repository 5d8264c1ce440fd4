import type { PhoneNumberRow } from '../phones/phones.schema';

/** The pacing window a number's next slot must start in to be used by this tick. */
export const PACING_WINDOW_MS = 1_000;

type PacedNumber = Pick<PhoneNumberRow, 'id' | 'nextDialAt'>;

/**
 * Rotation and pacing over a batch's numbers: each call takes the number whose next slot comes
 * first, if that slot starts within this tick's second; the number's next slot is then
 * 1/DIALER_CALLS_PER_SECOND later. A number shared by batches of the organization is paced
 * once: its slot is stored on the number, under the organization's lock.
 */
export class NumberPacing<P extends PacedNumber> {
  private readonly slots: Array<{ phone: P; at: number }>;
  private readonly intervalMs: number;

  constructor(
    numbers: P[],
    private readonly now: Date,
    callsPerSecond: number,
  ) {
    this.intervalMs = 1000 / callsPerSecond;
    this.slots = numbers.map((phone) => ({
      phone,
      at: Math.max(now.getTime(), phone.nextDialAt?.getTime() ?? 0),
    }));
  }

  take(): { phone: P; at: Date; next: Date } | undefined {
    const best = this.slots.reduce((a, b) => (b.at < a.at ? b : a));
    if (best.at >= this.now.getTime() + PACING_WINDOW_MS) return undefined;
    const at = best.at;
    best.at = at + this.intervalMs;
    return { phone: best.phone, at: new Date(at), next: new Date(best.at) };
  }
}
