import type { BatchRow } from '../batches/batches.schema';
import type { BatchWindow } from './calling-window';

/** The calling-window settings of a batch, as evaluateCallingWindow reads them. */
export function windowOf(
  batch: Pick<
    BatchRow,
    | 'timezone'
    | 'callingHourStart'
    | 'callingHourEnd'
    | 'allowedDays'
    | 'enforceCalleeLocalHours'
    | 'trustContactTimezone'
  >,
): BatchWindow {
  return {
    timezone: batch.timezone,
    callingHourStart: batch.callingHourStart,
    callingHourEnd: batch.callingHourEnd,
    allowedDays: batch.allowedDays,
    enforceCalleeLocalHours: batch.enforceCalleeLocalHours,
    trustContactTimezone: batch.trustContactTimezone,
  };
}

/** Whether the batch's schedule allows dialing at `at`: from startAt (included) to endAt (not). */
export function inSchedule(batch: Pick<BatchRow, 'startAt' | 'endAt'>, at: Date): boolean {
  return (!batch.startAt || batch.startAt <= at) && (!batch.endAt || at < batch.endAt);
}
