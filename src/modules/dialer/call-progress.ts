import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { BatchCountersRepository } from '../call-records/batch-counters.repository';
import type { PhoneLogRow } from '../call-records/call-records.schema';
import { type NewPhoneLog, PhoneLogsRepository } from '../call-records/phone-logs.repository';
import { type AttemptDecision, AttemptOutcomes } from './attempt-outcomes';
import type { Attempt } from './attempts.repository';
import type { AmdVerdict } from '../telephony/answered-by';
import type {
  CallbackCallStatus,
  HangupSide,
  Integration,
  RecordingDetails,
} from '../telephony/telephony.types';
import { AttemptEvents } from './attempt-events';
import { advances, finalStatus, isFinal, secondsBetween } from './progress-rules';

/** What one provider callback (or a reconciliation) reports about an attempt. */
export interface ProgressReport {
  integration: Integration;
  callStatus?: CallbackCallStatus;
  providerStatus: string;
  providerCallId?: string;
  durationSeconds?: number;
  answeredBy?: AmdVerdict;
  /** The verdict is a fax machine. */
  fax?: boolean;
  hangupCause?: string;
  hangupSide?: HangupSide;
  recordingUrl?: string;
  recording?: RecordingDetails;
  /** When the provider says it happened (ISO 8601). */
  occurredAt?: string;
  /** The final status proves the call was answered (ParsedCallStatus.connected). */
  connected?: boolean;
}

export interface ProgressOutcome {
  /** The attempt as it stands now. */
  attempt: Attempt;
  /** This report answered the call (first in-progress). */
  answeredNow: boolean;
  /** This report ended the attempt (first final status). */
  endedNow: boolean;
}

const NOTHING: AttemptDecision = { next: { willRetry: false, nextAttemptAt: null }, record: null };

/**
 * Applies provider progress to an attempt: order-safe (a status only moves up, queued < ringing
 * < in-progress < final, and a final one never changes) and idempotent (a report that changes
 * nothing raises nothing). The events of the change are raised in the same transaction, in
 * order: call.started (once, whoever sees placed_at still null), call.answered,
 * call.completed / call.failed (with the retry decision), call.recording.available.
 */
@Injectable()
export class CallProgress {
  constructor(
    private readonly logs: PhoneLogsRepository,
    private readonly counters: BatchCountersRepository,
    private readonly outcomes: AttemptOutcomes,
    private readonly events: AttemptEvents,
    private readonly clock: Clock,
  ) {}

  /** Inside the caller's Database.transaction(), the attempt locked (AttemptsRepository.lock). */
  async apply(attempt: Attempt, report: ProgressReport): Promise<ProgressOutcome> {
    const now = this.clock.now();
    const before = attempt.log;
    const wasFinal = isFinal(before.callStatus);
    const changes: Partial<NewPhoneLog> = {};
    const startedNow = before.placedAt === null && !wasFinal;
    if (startedNow) changes.placedAt = now;
    if (report.providerCallId && !before.providerCallId)
      changes.providerCallId = report.providerCallId;
    // Detection decides once: a verdict only fills an undecided one (a later callback may
    // repeat a default, as Twilio's completed callback does).
    const undecided = before.answeredBy === null || before.answeredBy === 'unknown';
    if (!wasFinal && undecided && report.answeredBy && report.answeredBy !== before.answeredBy)
      changes.answeredBy = report.answeredBy;
    // A fax is a fax, whatever the session heard: the provider's tone detection outranks it.
    if (!wasFinal && report.fax && before.answerOutcome !== 'fax') changes.answerOutcome = 'fax';

    let answeredNow = false;
    let endedNow = false;
    const reported = report.callStatus;
    if (reported && reported !== 'queued' && advances(before.callStatus, reported)) {
      changes.providerStatus = report.providerStatus;
      if (reported === 'ringing') {
        changes.callStatus = 'ringing';
      } else if (reported === 'in-progress') {
        changes.callStatus = 'in-progress';
        changes.answeredAt = now;
        answeredNow = true;
      } else {
        const duration =
          report.durationSeconds ??
          (before.answeredAt ? secondsBetween(before.answeredAt, now) : 0);
        const answered = before.answeredAt !== null || duration > 0 || report.connected === true;
        changes.callStatus = finalStatus(
          reported,
          answered,
          changes.answeredBy ?? before.answeredBy,
          before,
        );
        changes.callDuration = duration;
        changes.endedAt = now;
        changes.endedReason = report.hangupCause ?? reported;
        changes.leaseExpiresAt = null;
        endedNow = true;
      }
    }
    // The answer of a call whose end came first (reordered callbacks): it happened when the
    // provider says, before that end. Recorded on the ended attempt (its talk time, callsPicked);
    // no call.answered after the call's final event.
    const lateAnswer = answerBeforeEnd(before, report);
    if (lateAnswer) {
      changes.answeredAt = lateAnswer;
      if (before.callDuration === 0)
        changes.callDuration = secondsBetween(lateAnswer, before.endedAt!);
    }
    const recordingNow =
      report.recordingUrl !== undefined &&
      report.recording !== undefined &&
      report.recordingUrl !== before.recordingUrl;
    if (recordingNow) changes.recordingUrl = report.recordingUrl;
    if (Object.keys(changes).length === 0) return { attempt, answeredNow, endedNow };

    // callsPicked counts records with an attempt a person (or an undecided AMD) answered.
    const pickMayMove =
      answeredNow ||
      lateAnswer !== null ||
      (changes.answeredBy !== undefined && before.answeredAt !== null);
    const { organizationId } = attempt.batch;
    const pickedBefore =
      pickMayMove && (await this.logs.recordPicked(organizationId, before.callRecordId));
    const log: PhoneLogRow = { ...before, ...changes };
    const { next, record } = endedNow
      ? await this.outcomes.decide({
          callRecordId: attempt.record.id,
          outcome: log.callStatus,
          endedAt: now,
          attempt: log,
        })
      : NOTHING;
    await this.logs.update(before, changes, record);
    const after: Attempt = { ...attempt, log };
    if (pickMayMove) {
      const pickedAfter = await this.logs.recordPicked(organizationId, before.callRecordId);
      this.counters.addCallsPicked(
        organizationId,
        attempt.batch.id,
        Number(pickedAfter) - Number(pickedBefore),
      );
    }

    if (startedNow) await this.events.started(after, report.integration);
    if (answeredNow) await this.events.answered(after);
    if (endedNow) await this.events.ended(after, report, next);
    if (recordingNow) await this.events.recording(after, report.recording!, now);
    return { attempt: after, answeredNow, endedNow };
  }
}

/**
 * When a late in-progress report says the ended attempt was answered: only for an attempt that
 * ended connected (completed or voicemail) with no answer recorded, at the provider's own time
 * of the answer, which must lie before the end. Null otherwise.
 */
function answerBeforeEnd(before: PhoneLogRow, report: ProgressReport): Date | null {
  if (report.callStatus !== 'in-progress' || !report.occurredAt) return null;
  if (before.answeredAt !== null || before.endedAt === null) return null;
  if (before.callStatus !== 'completed' && before.callStatus !== 'voicemail') return null;
  const at = new Date(report.occurredAt);
  return Number.isFinite(at.getTime()) && at <= before.endedAt ? at : null;
}
