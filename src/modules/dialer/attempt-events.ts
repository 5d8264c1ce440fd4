import { Injectable } from '@nestjs/common';
import type { CallFailureReason, TurnLatencySummary } from '@app/contracts';
import type { CallStatus, PhoneLogTurn } from '../call-records/call-records.schema';
import { CollectedDigits } from '../call-records/collected-digits';
import { callTurnLatency } from '../call-records/turn-latency';
import type { NextAttempt } from './attempt-outcomes';
import { type Attempt, callEventBase } from './attempts.repository';
import { EventsService } from '../events/events.service';
import { JobName, JobQueue } from '../../queue';
import type { HangupSide, Integration, RecordingDetails } from '../telephony/telephony.types';
import {
  endedBy,
  failureReason,
  interrupted,
  secondsBetween,
  sessionEndedBy,
} from './progress-rules';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** The call events of an attempt's progress, filled from the attempt as it now stands. */
@Injectable()
export class AttemptEvents {
  constructor(
    private readonly events: EventsService,
    private readonly queue: JobQueue,
    private readonly digits: CollectedDigits,
  ) {}

  async started(attempt: Attempt, provider: Integration): Promise<void> {
    await this.events.raise(attempt.batch.organizationId, {
      type: 'call.started',
      callId: attempt.log.id,
      data: { ...callEventBase(attempt), provider },
    });
  }

  async answered(attempt: Attempt): Promise<void> {
    const { log } = attempt;
    const answeredAt = log.answeredAt!;
    await this.events.raise(attempt.batch.organizationId, {
      type: 'call.answered',
      callId: log.id,
      data: {
        ...callEventBase(attempt),
        answered_at: answeredAt.toISOString(),
        answered_by: log.answeredBy ?? 'unknown',
        ring_duration_seconds: log.placedAt ? secondsBetween(log.placedAt, answeredAt) : 0,
      },
    });
  }

  /**
   * call.completed for a completed attempt, else call.failed with the retry decision; the
   * failure reason is read from the status and hang-up cause unless the caller knows it.
   */
  async ended(
    attempt: Attempt,
    hangup: { hangupCause?: string; hangupSide?: HangupSide; failureReason?: CallFailureReason },
    next: NextAttempt,
  ): Promise<void> {
    const { log } = attempt;
    const endedAt = log.endedAt!;
    const base = callEventBase(attempt);
    if (log.callStatus === 'completed') {
      // Private entries stay sealed in the outbox too, and reach the webhook beside the others.
      const privateDigits = this.digits.openPrivate(log);
      await this.events.raise(attempt.batch.organizationId, {
        type: 'call.completed',
        callId: log.id,
        data: {
          ...base,
          status: 'completed',
          started_at: (log.placedAt ?? log.createdAt).toISOString(),
          answered_at: iso(log.answeredAt),
          ended_at: endedAt.toISOString(),
          duration_seconds: log.callDuration,
          answered_by: log.answeredBy ?? 'unknown',
          // After a transfer the call went on with the new party: theirs was the end of it.
          ended_by: log.transferredAt
            ? 'transfer'
            : (sessionEndedBy(log.sessionEndedBy) ??
              endedBy(hangup.hangupCause, hangup.hangupSide)),
          failed_dependency: log.failedDependency,
          turn_latency: turnLatencySummary(log.turns),
          collected_digits: log.collectedDigits,
          answer_outcome: log.answerOutcome,
          answer_outcome_ms: log.answerOutcomeMs,
          recording_expected: attempt.batch.recordCalls,
        },
        sealed:
          Object.keys(privateDigits).length > 0 ? { collected_digits: privateDigits } : undefined,
      });
      // A conversation took place: its summary and analysis follow (queued after the commit).
      if (log.turns.length > 0) {
        await this.queue.enqueue(
          JobName.AnalyzeCall,
          { organizationId: attempt.batch.organizationId, phoneLogId: log.id },
          { jobId: `analyze-call-${log.id}` },
        );
      }
      return;
    }
    await this.events.raise(attempt.batch.organizationId, {
      type: 'call.failed',
      callId: log.id,
      data: {
        ...base,
        status: 'failed',
        failure_reason:
          hangup.failureReason ??
          (interrupted(log)
            ? 'interrupted'
            : failureReason(log.callStatus as CallStatus, hangup.hangupCause)),
        provider_status: log.providerStatus,
        ended_at: endedAt.toISOString(),
        duration_seconds: log.callDuration,
        will_retry: next.willRetry,
        next_attempt_at: iso(next.nextAttemptAt),
        failed_dependency: log.failedDependency,
        answer_outcome: log.answerOutcome,
        answer_outcome_ms: log.answerOutcomeMs,
      },
    });
  }

  /**
   * The new party at `transferredTo` answered (cold: the agent left when the provider took the
   * call) or, warm, took the call after the agent's brief (`summary`).
   */
  async transferred(attempt: Attempt): Promise<void> {
    const { log } = attempt;
    await this.events.raise(attempt.batch.organizationId, {
      type: 'call.transferred',
      callId: log.id,
      data: {
        ...callEventBase(attempt),
        transferred_at: log.transferredAt!.toISOString(),
        transfer_to: log.transferredTo!,
        transfer_type: log.transferBriefing ? 'warm' : 'cold',
        reason: log.transferReason,
        summary: log.transferBriefing,
      },
    });
  }

  async recording(attempt: Attempt, details: RecordingDetails, now: Date): Promise<void> {
    const { log } = attempt;
    await this.events.raise(attempt.batch.organizationId, {
      type: 'call.recording.available',
      callId: log.id,
      data: {
        ...callEventBase(attempt),
        recording_url: log.recordingUrl!,
        expires_at:
          details.validForSeconds === undefined
            ? null
            : new Date(now.getTime() + details.validForSeconds * 1000).toISOString(),
        recording_duration_seconds: details.durationSeconds ?? 0,
        content_type: details.contentType ?? 'audio/mpeg',
        channels: details.channels ?? 'mono',
      },
    });
  }
}

/** The call's reply latency in the event's words. */
function turnLatencySummary(turns: PhoneLogTurn[]): TurnLatencySummary | null {
  const latency = callTurnLatency(turns);
  return latency && { turns: latency.turns, p50_ms: latency.p50Ms, p95_ms: latency.p95Ms };
}
