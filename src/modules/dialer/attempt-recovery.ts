import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { describeUnknown } from '../../common/describe-error';
import { Semaphore } from '../../common/semaphore';
import { Database } from '../../database';
import { PhoneCredentials } from '../phones/phone-credentials';
import { ProviderError } from '../telephony/provider-error';
import { TelephonyProviders } from '../telephony/telephony-providers';
import type { ProviderCallState } from '../telephony/telephony.types';
import { type AttemptEnd, AttemptEndings } from './attempt-endings';
import { AttemptRecoveryRepository, type ExpiredAttempt } from './attempt-recovery.repository';
import { AttemptsRepository } from './attempts.repository';
import {
  ALIVE_RECHECK_SECONDS,
  RECOVERY_BATCH,
  RECOVERY_CONCURRENCY,
  RECOVERY_LEASE_SECONDS,
} from './dialer.constants';
import { isFinal } from './progress-rules';

export interface RecoveryReport {
  /** Attempts ended from what the provider reported. */
  reconciled: number;
  /** Still alive at the provider: lease extended. */
  alive: number;
  /** Never got a provider call id: ended `placement_unknown`. */
  lost: number;
  /** The provider could not be asked: tried again after RECOVERY_LEASE_SECONDS. */
  deferred: number;
}

/**
 * Attempts whose lease expired without a final callback (docs/dialer.md, "Recovery"). With a
 * provider call id: ask the provider (fetchCall) and apply the final status it reports, or
 * extend the lease while the call is alive. Without one (the placement's answer never came):
 * end it `failed` / `placement_unknown`; the lease outlived any placement, and a call placed
 * would have called back by then. Nothing here ever places a call.
 */
@Injectable()
export class AttemptRecovery {
  private readonly logger = new Logger('AttemptRecovery');

  constructor(
    private readonly database: Database,
    private readonly recovery: AttemptRecoveryRepository,
    private readonly attempts: AttemptsRepository,
    private readonly endings: AttemptEndings,
    private readonly providers: TelephonyProviders,
    private readonly credentials: PhoneCredentials,
    private readonly clock: Clock,
  ) {}

  async pass(): Promise<RecoveryReport> {
    const report: RecoveryReport = { reconciled: 0, alive: 0, lost: 0, deferred: 0 };
    const now = this.clock.now();
    const expired = await this.recovery.takeExpired(
      now,
      new Date(now.getTime() + RECOVERY_LEASE_SECONDS * 1000),
      RECOVERY_BATCH,
    );
    // Each provider lookup may take its full timeout: a few at a time, not one after another.
    const gate = new Semaphore(RECOVERY_CONCURRENCY);
    const outcomes = await Promise.all(
      expired.map((attempt) => gate.run(() => this.recover(attempt))),
    );
    for (const outcome of outcomes) report[outcome] += 1;
    return report;
  }

  private async recover(expired: ExpiredAttempt): Promise<keyof RecoveryReport> {
    if (!expired.providerCallId || !expired.phone) {
      await this.endIfLive(expired.id, {
        status: 'failed',
        endedReason: expired.providerCallId ? 'unreconciled' : 'placement_unknown',
        endedAt: this.clock.now(),
      });
      return 'lost';
    }
    let state: ProviderCallState;
    try {
      const { accountId, secret } = this.credentials.open(
        expired.organizationId,
        expired.phone.id,
        expired.phone.credentials,
      );
      state = await this.providers.get(expired.phone.integration).fetchCall(
        { accountId, secret },
        {
          providerCallId: expired.providerCallId,
          from: expired.fromNumber ?? expired.phone.phoneNumber,
          to: expired.toNumber,
          // Written with the provider call id (CallPlacement): never null here in practice.
          placedAt: expired.placedAt ?? this.clock.now(),
        },
      );
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') {
        await this.endIfLive(expired.id, {
          status: 'failed',
          endedReason: 'not_found_at_provider',
          endedAt: this.clock.now(),
        });
        return 'reconciled';
      }
      const reason = JSON.stringify(describeUnknown(error));
      this.logger.warn(`Could not reconcile ${expired.id} with its provider: ${reason}`);
      return 'deferred';
    }
    if (state.alive) {
      const until = new Date(this.clock.now().getTime() + ALIVE_RECHECK_SECONDS * 1000);
      await this.recovery.extendLease(expired.id, until);
      return 'alive';
    }
    await this.database.transaction(async () => {
      const attempt = await this.attempts.lock(expired.id);
      if (!attempt || isFinal(attempt.log.callStatus)) return;
      // Telnyx only says the call is over: answered (as our callbacks saw, or talk time at
      // the provider) means it completed.
      const answered = attempt.log.answeredAt !== null || (state.durationSeconds ?? 0) > 0;
      const status =
        state.status && isFinal(state.status)
          ? (state.status as AttemptEnd['status'])
          : answered
            ? 'completed'
            : 'failed';
      await this.endings.end(attempt, {
        status,
        endedReason: 'reconciled',
        providerStatus: state.providerStatus,
        durationSeconds: state.durationSeconds,
        answeredBy: state.answeredBy,
        endedAt: this.clock.now(),
      });
    });
    return 'reconciled';
  }

  private endIfLive(id: string, end: AttemptEnd): Promise<void> {
    return this.database.transaction(async () => {
      const attempt = await this.attempts.lock(id);
      if (attempt) await this.endings.end(attempt, end);
    });
  }
}
