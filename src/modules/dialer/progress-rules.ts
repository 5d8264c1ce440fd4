import type { CallEndedBy, CallFailureReason } from '@app/contracts';
import type { CallStatus, PhoneLogRow, SessionEndedBy } from '../call-records/call-records.schema';
import { FINAL_CALL_STATUSES } from './attempt-outcomes';
import type { AmdVerdict } from '../telephony/answered-by';
import type { CallbackCallStatus, HangupSide } from '../telephony/telephony.types';

/** Statuses an attempt never leaves. */
export const isFinal = (status: CallStatus): boolean => FINAL_CALL_STATUSES.includes(status);

/** queued < ringing < in-progress < any final status: progress only ever moves up. */
export function rank(status: CallStatus): number {
  if (status === 'queued') return 0;
  if (status === 'ringing') return 1;
  if (status === 'in-progress') return 2;
  return 3;
}

/** Whether a callback reporting `next` moves an attempt at `current` (never down, never off a final). */
export function advances(current: CallStatus, next: CallbackCallStatus): boolean {
  return !isFinal(current) && rank(next) > rank(current);
}

/**
 * The attempt's final callStatus from the provider's: an answered call that a machine picked up
 * is `voicemail`; a "completed" call nobody answered (no answer seen, no talk time) did not
 * connect, so it is `failed`; anything else as the provider says.
 */
export function finalStatus(
  reported: Exclude<CallbackCallStatus, 'queued' | 'ringing' | 'in-progress'>,
  answered: boolean,
  answeredBy: AmdVerdict | null,
  ended: Pick<PhoneLogRow, 'sessionEndedBy'>,
): CallStatus {
  if (interrupted(ended)) return 'failed';
  if (answered && answeredBy === 'machine') return 'voicemail';
  if (reported === 'completed' && !answered) return 'failed';
  return reported;
}

/**
 * The session ended the call because the process drained (a deploy, a restart): whatever the
 * provider reports, the attempt failed on our side, and the contact is called again.
 */
export const interrupted = (log: Pick<PhoneLogRow, 'sessionEndedBy'>): boolean =>
  log.sessionEndedBy === 'drain';

/** call.failed's failure_reason for a final status other than completed. */
export function failureReason(status: CallStatus, hangupCause?: string): CallFailureReason {
  switch (status) {
    case 'busy':
      return 'busy';
    case 'no-answer':
      return 'no_answer';
    case 'canceled':
      return 'canceled';
    case 'voicemail':
      return 'voicemail';
    case 'queued':
    case 'ringing':
    case 'in-progress':
    case 'completed':
    case 'failed': {
      const cause = (hangupCause ?? '').toLowerCase();
      if (/reject/.test(cause)) return 'rejected';
      if (/not_found|unallocated|invalid/.test(cause)) return 'invalid_number';
      return 'unknown';
    }
  }
}

/** call.completed's ended_by: the limit we set, else the side the provider names, else system. */
export function endedBy(hangupCause?: string, side?: HangupSide): CallEndedBy {
  if (hangupCause === 'time_limit') return 'max_duration';
  if (side === 'us') return 'agent';
  if (side === 'callee') return 'callee';
  return 'system';
}

/**
 * call.completed's ended_by when the voice session ended the call itself; null when it did not
 * (then the provider's account decides). A drain ends the call on the system's behalf.
 */
export function sessionEndedBy(reason: SessionEndedBy | null): CallEndedBy | null {
  switch (reason) {
    case 'agent':
    case 'max_duration':
    case 'service_failure':
    case 'system':
      return reason;
    case 'drain':
      return 'system';
    case 'voicemail':
    case null:
      return null;
  }
}

/** Whole seconds from `from` to `to`, never negative. */
export function secondsBetween(from: Date, to: Date): number {
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
}
