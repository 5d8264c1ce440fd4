import type { DialPermit } from '../../call-records/call-records.schema';

/** A batch's own calling window (createBatch: timezone, callingHour, allowedDays). */
export interface BatchWindow {
  /** IANA zone the batch's window and days are read in. */
  timezone: string;
  /** 'HH:MM' 24-hour, or null with callingHourEnd null: the whole day. */
  callingHourStart: string | null;
  callingHourEnd: string | null;
  /** 0 = Sunday … 6 = Saturday, in the batch's zone. */
  allowedDays: number[];
  /** When true, also 08:00–21:00 (stricter by state) in every zone the callee may be in. */
  enforceCalleeLocalHours: boolean;
  /** A contact's timezone is used even when the number cannot be in it (default false). */
  trustContactTimezone?: boolean;
}

export interface Callee {
  /** E.164. */
  phoneNumber: string;
  /**
   * The contact's `timezone` field, when it has one: used if valid and one of the number's zones
   * (or the batch trusts it), else the number's zones are.
   */
  timezone?: string;
  /** When this record's attempts of the last 24 hours were placed (per-state attempt caps). */
  recentAttempts: Date[];
}

export type WindowDecision =
  | { allowed: true; permit: DialPermit }
  | {
      allowed: false;
      /** Short machine-readable reason, e.g. `batch_hours`, `callee_local_hours`, `state_cap`. */
      reason: string;
      /** The first instant the call would be allowed; null when it never will be. */
      nextAllowedAt: Date | null;
    };
