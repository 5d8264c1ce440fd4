import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock } from '../../common/clock';
import { describeUnknown } from '../../common/describe-error';
import { PeriodicTask } from '../../common/periodic-task';
import { Semaphore } from '../../common/semaphore';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { PhoneCredentials } from '../phones/phone-credentials';
import { describeProviderFailure, ProviderError } from '../telephony/provider-error';
import { TelephonyProviders } from '../telephony/telephony-providers';
import {
  type Integration,
  INTEGRATIONS,
  type ProviderCallState,
  type ProviderCredentials,
} from '../telephony/telephony.types';
import { type AttemptEnd, AttemptEndings } from './attempt-endings';
import { AttemptRecoveryRepository, type ExpiredAttempt } from './attempt-recovery.repository';
import { AttemptReleases } from './attempt-releases';
import { type Attempt, AttemptsRepository } from './attempts.repository';
import {
  ALIVE_RECHECK_SECONDS,
  RECOVERY_BATCH,
  RECOVERY_CONCURRENCY,
  RECOVERY_INTERVAL_MS,
  RECOVERY_LEASE_SECONDS,
  RECOVERY_MAX_LOOKUPS,
  RECOVERY_RETRY_SECONDS,
  RECOVERY_TIME_LIMIT_SECONDS,
} from './dialer.constants';
import { isFinal } from './progress-rules';

export interface RecoveryReport {
  /** Attempts ended from what the provider reported. */
  reconciled: number;
  /** Still alive at the provider: lease extended. */
  alive: number;
  /** Sent, but no provider call id ever came back: ended `placement_unknown`. */
  lost: number;
  /** Never sent (the process stopped between claim and dial check): given back unspent. */
  released: number;
  /** The provider could not be asked: tried again after RECOVERY_RETRY_SECONDS. */
  deferred: number;
  /** No outcome within the bound (RECOVERY_MAX_LOOKUPS, RECOVERY_TIME_LIMIT_SECONDS): ended. */
  unreconciled: number;
}

type Outcome = keyof RecoveryReport;

const emptyReport = (): RecoveryReport => ({
  reconciled: 0,
  alive: 0,
  lost: 0,
  released: 0,
  deferred: 0,
  unreconciled: 0,
});

/**
 * Attempts whose lease expired without a final callback (docs/dialer.md, "Recovery"), one pass
 * per provider on its own timer (RECOVERY_INTERVAL_MS), apart from the claim tick: one
 * provider's slow or failing lookups hold up neither the claims nor the other providers.
 * With a provider call id: ask the provider (fetchCall) and apply the final status it reports,
 * or extend the lease while the call is alive. Without one: never sent → given back unspent;
 * sent (its request started, and the placing lease outlived it) → `failed` /
 * `placement_unknown`, as a call placed would have called back by then. Always ends: past
 * RECOVERY_MAX_LOOKUPS lookups or RECOVERY_TIME_LIMIT_SECONDS, an attempt still without an
 * outcome ends `unreconciled`. Nothing here ever places a call.
 */
@Injectable()
export class AttemptRecovery implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AttemptRecovery');
  private readonly tasks = new Map(
    INTEGRATIONS.map((integration) => [
      integration,
      new PeriodicTask(() => this.passOf(integration), this.logger, `Recovery (${integration})`),
    ]),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly recovery: AttemptRecoveryRepository,
    private readonly attempts: AttemptsRepository,
    private readonly endings: AttemptEndings,
    private readonly releases: AttemptReleases,
    private readonly providers: TelephonyProviders,
    private readonly credentials: PhoneCredentials,
    private readonly clock: Clock,
  ) {}

  // Runs wherever the dialer ticks by itself (DialerScheduler): DIALER_TICK_MS 0 stops both.
  onApplicationBootstrap(): void {
    if (this.config.process.role === 'api' || this.config.dialer.tickMs === 0) return;
    for (const task of this.tasks.values()) task.start(RECOVERY_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.tasks.values()].map((task) => task.stop()));
  }

  /** One pass of every provider at once (joining any running); tests and tick() call it. */
  async pass(): Promise<RecoveryReport> {
    const reports = await Promise.all([...this.tasks.values()].map((task) => task.run()));
    const total = emptyReport();
    for (const report of reports)
      for (const key of Object.keys(total) as Outcome[]) total[key] += report[key];
    return total;
  }

  private async passOf(integration: Integration): Promise<RecoveryReport> {
    const report = emptyReport();
    const now = this.clock.now();
    const expired = await this.recovery.takeExpired(
      integration,
      now,
      new Date(now.getTime() + RECOVERY_LEASE_SECONDS * 1000),
      RECOVERY_BATCH,
    );
    // Each provider lookup may take its full timeout: a few at a time, not one after another.
    const gate = new Semaphore(RECOVERY_CONCURRENCY);
    const outcomes = await Promise.all(
      expired.map((attempt) => gate.run(() => this.recoverSafely(attempt))),
    );
    for (const outcome of outcomes) report[outcome] += 1;
    return report;
  }

  private async recoverSafely(expired: ExpiredAttempt): Promise<Outcome> {
    try {
      return await this.recover(expired);
    } catch (error) {
      // A failed write: the recovery lease expires and a later pass tries again.
      const reason = JSON.stringify(describeUnknown(error));
      this.logger.warn(`Recovery of ${expired.id} failed: ${reason}`);
      return 'deferred';
    }
  }

  private async recover(expired: ExpiredAttempt): Promise<Outcome> {
    if (!expired.providerCallId) {
      if (!expired.placingAt) {
        await this.releases.release(expired.id, 'never_sent', null);
        return 'released';
      }
      await this.endIfLive(expired.id, (attempt) =>
        attempt.log.providerCallId
          ? null
          : { status: 'failed', endedReason: 'placement_unknown', endedAt: this.clock.now() },
      );
      return 'lost';
    }
    if (!expired.phone) {
      await this.endIfLive(expired.id, (attempt) => this.unreconciled(attempt));
      return 'unreconciled';
    }
    const now = this.clock.now();
    const last =
      expired.lookups + 1 >= RECOVERY_MAX_LOOKUPS ||
      now.getTime() - expired.recoveringSince.getTime() >= RECOVERY_TIME_LIMIT_SECONDS * 1000;
    const { accountId, secret } = this.credentials.open(
      expired.organizationId,
      expired.phone.id,
      expired.phone.credentials,
    );
    const credentials = { accountId, secret };
    let state: ProviderCallState;
    try {
      state = await this.providers.get(expired.phone.integration).fetchCall(credentials, {
        providerCallId: expired.providerCallId,
        from: expired.fromNumber ?? expired.phone.phoneNumber,
        to: expired.toNumber,
        // Written with the provider call id (CallPlacement): never null here in practice.
        placedAt: expired.placedAt ?? now,
      });
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') {
        await this.endIfLive(expired.id, () => ({
          status: 'failed',
          endedReason: 'not_found_at_provider',
          endedAt: this.clock.now(),
        }));
        return 'reconciled';
      }
      const reason = JSON.stringify(describeProviderFailure(error));
      this.logger.warn(`Could not reconcile ${expired.id} with its provider: ${reason}`);
      if (last) return this.giveUp(expired, credentials, false);
      await this.recovery.lookedUp(
        expired.organizationId,
        expired.id,
        this.after(RECOVERY_RETRY_SECONDS),
      );
      return 'deferred';
    }
    if (state.alive) {
      if (last) return this.giveUp(expired, credentials, true);
      await this.recovery.lookedUp(
        expired.organizationId,
        expired.id,
        this.after(ALIVE_RECHECK_SECONDS),
      );
      return 'alive';
    }
    await this.endIfLive(expired.id, (attempt) => {
      // Telnyx only says the call is over: answered (as our callbacks saw, or talk time at
      // the provider) means it completed.
      const answered = attempt.log.answeredAt !== null || (state.durationSeconds ?? 0) > 0;
      const status =
        state.status && isFinal(state.status)
          ? (state.status as AttemptEnd['status'])
          : answered
            ? 'completed'
            : 'failed';
      return {
        status,
        endedReason: 'reconciled',
        providerStatus: state.providerStatus,
        durationSeconds: state.durationSeconds,
        answeredBy: state.answeredBy,
        endedAt: this.clock.now(),
      };
    });
    return 'reconciled';
  }

  /**
   * The bound is reached without an outcome: the attempt ends `unreconciled`, so its capacity
   * is freed, its event raised and its batch may complete. A call the provider still reports
   * alive (past the time limit it was given) is asked to hang up first, best effort.
   */
  private async giveUp(
    expired: ExpiredAttempt,
    credentials: ProviderCredentials,
    alive: boolean,
  ): Promise<Outcome> {
    if (alive && expired.phone && expired.providerCallId) {
      await this.providers
        .get(expired.phone.integration)
        .hangupCall(credentials, expired.providerCallId)
        .catch((error: unknown) => {
          const reason = JSON.stringify(describeProviderFailure(error));
          this.logger.warn(`Hang-up of unreconciled ${expired.id} failed: ${reason}`);
        });
    }
    await this.endIfLive(expired.id, (attempt) => this.unreconciled(attempt));
    return 'unreconciled';
  }

  /** Someone was heard on it (a callback said answered): completed, never dialed again. */
  private unreconciled(attempt: Attempt): AttemptEnd {
    const answered = attempt.log.answeredAt !== null;
    return {
      status: answered ? 'completed' : 'failed',
      endedReason: 'unreconciled',
      failureReason: 'unknown',
      endedAt: this.clock.now(),
    };
  }

  private after(seconds: number): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }

  /** Ends the attempt as `end` says (null: leave it), unless a callback ended it meanwhile. */
  private endIfLive(id: string, end: (attempt: Attempt) => AttemptEnd | null): Promise<void> {
    return this.database.transaction(async () => {
      const attempt = await this.attempts.lock(id);
      if (!attempt || isFinal(attempt.log.callStatus)) return;
      const ending = end(attempt);
      if (ending) await this.endings.end(attempt, ending);
    });
  }
}
