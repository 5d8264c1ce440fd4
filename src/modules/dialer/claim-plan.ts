import type { BatchRow } from '../batches/batches.schema';
import type { CallRecordRow, DialPermit } from '../call-records/call-records.schema';
import type { PhoneNumberRow } from '../phones/phones.schema';
import { windowOf } from './batch-window';
import { allowedUntil, evaluateCallingWindow, nextAllowedAt } from './calling-window';
import type { DueRecord } from './dialer-claims.repository';
import type { NumberPacing, PacingSlot } from './number-pacing';

/** A record the calling window refuses now: it waits until `at`; null (never allowed): failed. */
export interface Hold {
  id: string;
  at: Date | null;
}

/** A record to dial now, on its pacing slot, with the permit that allowed it. */
export interface Pick {
  record: CallRecordRow;
  permit: DialPermit;
  /**
   * When the window that allowed it closes, or the batch's endAt if earlier: the dial check
   * refuses the call from then on.
   */
  windowClosesAt: Date;
  slot: PacingSlot<PhoneNumberRow>;
}

export interface ClaimPlan {
  holds: Hold[];
  picks: Pick[];
}

/** How far ahead a claim looks for its window's close (a placement takes seconds). */
const WINDOW_HORIZON_MS = 3_600_000;

/**
 * A record whose number is on a call already (another batch's, or an earlier record of this
 * claim) waits this long and is looked at again: one live call per number per organization.
 * One whose window closes within `lastCallMarginMs` waits for the next window (a call queued at
 * the provider could ring after the close); the batch's endAt closes every window.
 */
export const NUMBER_BUSY_RECHECK_MS = 60_000;

/**
 * The claim's decisions, in memory and in the records' order: a record whose number is on a
 * call already is held; each other is checked against the calling window (refused: held), then
 * takes the next pacing slot, until `free` calls are picked or no number has a slot this tick.
 * The caller writes the plan in a few set-based statements.
 */
export function planClaims(
  batch: BatchRow,
  records: DueRecord[],
  pacing: NumberPacing<PhoneNumberRow>,
  free: number,
  now: Date,
  lastCallMarginMs = 0,
): ClaimPlan {
  const plan: ClaimPlan = { holds: [], picks: [] };
  const window = windowOf(batch);
  const dialing = new Set<string>();
  for (const { record, recent, liveCall } of records) {
    if (plan.picks.length >= free) break;
    if (liveCall || dialing.has(record.phoneNumber)) {
      plan.holds.push({ id: record.id, at: new Date(now.getTime() + NUMBER_BUSY_RECHECK_MS) });
      continue;
    }
    const callee = {
      phoneNumber: record.phoneNumber,
      timezone: record.contact.timezone,
      recentAttempts: recent,
    };
    const decision = evaluateCallingWindow(window, callee, now);
    if (!decision.allowed) {
      plan.holds.push({ id: record.id, at: decision.nextAllowedAt });
      continue;
    }
    // Allowed now, so never null; an hour ahead is far beyond any placement.
    const windowClosesAt = closeOf(
      batch,
      allowedUntil(window, callee, now, WINDOW_HORIZON_MS) ?? now,
    );
    if (windowClosesAt.getTime() - now.getTime() < lastCallMarginMs) {
      // Too near the batch's endAt: pending until the end closes it (ScheduledEnds).
      const at =
        windowClosesAt === batch.endAt
          ? batch.endAt
          : nextAllowedAt(window, callee, windowClosesAt);
      plan.holds.push({ id: record.id, at });
      continue;
    }
    const slot = pacing.take();
    if (!slot) break;
    plan.picks.push({ record, permit: decision.permit, windowClosesAt, slot });
    dialing.add(record.phoneNumber);
  }
  return plan;
}

/**
 * When the permit closes: the calling window's close, or the batch's endAt if that comes first
 * (the dial check refuses the call from then on, the claim within the last-call margin of it).
 */
export function closeOf(batch: { endAt: BatchRow['endAt'] }, windowCloses: Date): Date {
  return batch.endAt && batch.endAt < windowCloses ? batch.endAt : windowCloses;
}

/** The batch's counter moves of the picks: each becomes `queued`, leaving its latest status. */
export function countMoves(picks: Pick[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { record } of picks) {
    counts.queued = (counts.queued ?? 0) + 1;
    if (record.lastCallStatus !== null) {
      counts[record.lastCallStatus] = (counts[record.lastCallStatus] ?? 0) - 1;
    }
  }
  return counts;
}

/** Each number's slot after its last pick: where its pacing goes on next time. */
export function nextDialAts(picks: Pick[]): Array<{ id: string; at: Date }> {
  const last = new Map<string, Date>();
  for (const { slot } of picks) last.set(slot.phone.id, slot.next);
  return [...last].map(([id, at]) => ({ id, at }));
}

/** Each provider account's slot after its last pick. */
export function nextAccountDialAts(picks: Pick[]): Array<{ id: string; at: Date }> {
  const last = new Map<string, Date>();
  for (const { slot } of picks) if (slot.account) last.set(slot.account.id, slot.account.next);
  return [...last].map(([id, at]) => ({ id, at }));
}

/**
 * Whether the claim may have closed the batch's last records: nothing claimed, and every held
 * record failed (never allowed). A record held until later stays pending, so completeIfDone
 * (two statements) could not complete the batch.
 */
export function mayHaveFinished({ picks, holds }: ClaimPlan): boolean {
  return picks.length === 0 && holds.every((hold) => hold.at === null);
}
