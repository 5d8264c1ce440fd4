import { Injectable } from '@nestjs/common';
import type { CallFailureReason } from '@app/contracts';
import type { CallStatus } from '../call-records/call-records.schema';
import { PhoneLogsRepository } from '../call-records/phone-logs.repository';
import { AttemptEvents } from './attempt-events';
import { AttemptOutcomes } from './attempt-outcomes';
import type { Attempt } from './attempts.repository';
import { interrupted, isFinal } from './progress-rules';

export interface AttemptEnd {
  status: Exclude<CallStatus, 'queued' | 'ringing' | 'in-progress'>;
  /** Why the dialer ended it (provider_error, placement_unknown, reconciled…). */
  endedReason: string;
  /** call.failed's failure_reason when the status alone does not tell it (provider_error). */
  failureReason?: CallFailureReason;
  providerStatus?: string | null;
  durationSeconds?: number;
  answeredBy?: 'human' | 'machine' | 'unknown';
  endedAt: Date;
}

/**
 * How the dialer itself ends an attempt (a refused placement, a reconciled or lost call): the
 * record's retry-or-done (AttemptOutcomes), written with the final status on the phone log in
 * one statement, and the call event, all in the caller's transaction with the phone log locked
 * (AttemptsRepository.lock).
 * An attempt that already has a final status is left as it is.
 */
@Injectable()
export class AttemptEndings {
  constructor(
    private readonly logs: PhoneLogsRepository,
    private readonly outcomes: AttemptOutcomes,
    private readonly events: AttemptEvents,
  ) {}

  async end(attempt: Attempt, end: AttemptEnd): Promise<boolean> {
    const { log } = attempt;
    if (isFinal(log.callStatus)) return false;
    // A call our own drain cut short failed on our side, however the provider saw it end.
    if (interrupted(log)) end = { ...end, status: 'failed' };
    const durationSeconds = end.durationSeconds ?? log.callDuration;
    const { next, record } = await this.outcomes.decide({
      callRecordId: attempt.record.id,
      outcome: end.status,
      endedAt: end.endedAt,
      attempt: log,
    });
    await this.logs.update(
      log,
      {
        callStatus: end.status,
        endedReason: end.endedReason,
        endedAt: end.endedAt,
        leaseExpiresAt: null,
        callDuration: durationSeconds,
        ...(end.providerStatus !== undefined ? { providerStatus: end.providerStatus } : {}),
        ...(end.answeredBy ? { answeredBy: end.answeredBy } : {}),
      },
      record,
    );
    const ended: Attempt = {
      ...attempt,
      log: {
        ...log,
        callStatus: end.status,
        endedAt: end.endedAt,
        callDuration: durationSeconds,
        providerStatus: end.providerStatus ?? log.providerStatus,
        answeredBy: end.answeredBy ?? log.answeredBy,
      },
    };
    await this.events.ended(ended, { failureReason: end.failureReason }, next);
    return true;
  }
}
