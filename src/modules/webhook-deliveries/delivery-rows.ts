import type { AttemptTrigger } from './webhook-deliveries.schema';

/** A delivery due again: its next attempt's number and trigger. */
export interface DueDelivery {
  id: string;
  attemptNo: number;
  trigger: AttemptTrigger;
}

/** Raw SQL answers timestamps as strings or Dates depending on the driver. */
export const toDate = (value: unknown): Date =>
  value instanceof Date ? value : new Date(String(value));
export const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

export const dueOf = (
  rows: Array<{ id: string; attempt_count: number; next_trigger: AttemptTrigger }>,
): DueDelivery[] =>
  rows.map((row) => ({ id: row.id, attemptNo: row.attempt_count + 1, trigger: row.next_trigger }));
