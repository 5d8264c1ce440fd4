import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { describeUnknown } from '../../common/describe-error';
import { MicroBatcher } from '../../common/micro-batcher';
import { Semaphore } from '../../common/semaphore';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { PhoneLogsRepository } from '../call-records/phone-logs.repository';
import { callbackUrlsFor, callbackUrlsForCall } from '../phones/callback-urls';
import { PhoneCredentials } from '../phones/phone-credentials';
import { SwitchboardMetrics } from '../../metrics/switchboard-metrics';
import { ProviderError } from '../telephony/provider-error';
import { TelephonyProviders } from '../telephony/telephony-providers';
import { AttemptEndings } from './attempt-endings';
import { AttemptEvents } from './attempt-events';
import { AttemptReleases } from './attempt-releases';
import { AttemptsRepository } from './attempts.repository';
import { CallPlacementRepository } from './call-placement.repository';
import type { Claim } from './dialer-claims';
import { isFinal } from './progress-rules';
import {
  LEASE_MARGIN_SECONDS,
  NOT_PLACED_BACKOFF_SECONDS,
  NOT_PLACED_MAX_BACKOFF_SECONDS,
  PLACEMENT_LEASE_SECONDS,
  PLACEMENT_WRITE_ATTEMPTS,
  PLACEMENT_WRITE_BATCH,
  PLACEMENT_WRITE_CONCURRENCY,
  RING_TIMEOUT_SECONDS,
} from './dialer.constants';

/**
 * placed: the provider took the call. refused: a definite refusal (4xx), the attempt ended
 * failed. unknown: ambiguous (timeout, 5xx, a connection lost mid-answer), recovery decides.
 * withheld: the dial check said no (or no provider slot came in time): nothing was sent.
 * released: the provider refused in a way that proves nothing was placed (429, no
 * connection). Neither of the last two spends an attempt.
 */
export type PlacementResult = 'placed' | 'refused' | 'unknown' | 'withheld' | 'released';

interface PlacedCall {
  claim: Claim;
  providerCallId: string;
}

/**
 * Places one claimed attempt with its provider, after the claim committed, at most once. First
 * the dial check (CallPlacementRepository.markPlacing: still claimed, batch active, not on the
 * DNC list, window open, in the statement that marks it placing); refused, nothing is sent and
 * the attempt is given back (AttemptReleases). Then the request: a success stores the
 * provider's call id (and raises call.started unless a callback already did); a refusal that
 * proves nothing was placed (429, honouring Retry-After, or no connection) gives the attempt
 * back with a back-off; a definite refusal (a 4xx: bad number, credentials, not allowed) ends
 * it `failed` with ended_reason provider_error; anything ambiguous (timeout, 5xx, a connection
 * lost mid-answer) writes nothing: the placing lease expires and recovery asks the provider.
 */
@Injectable()
export class CallPlacement {
  private readonly logger = new Logger('CallPlacement');
  private readonly writes = new Semaphore(PLACEMENT_WRITE_CONCURRENCY);
  /**
   * Placements answer together (a tick's claims go out at once): their results are written a
   * few per transaction, so one commit (one WAL flush) serves several calls. Each resolves to
   * its own error, if any (see writePlaced).
   */
  private readonly placedWrites = new MicroBatcher<PlacedCall, Error | undefined>(
    (calls) => this.writePlaced(calls),
    { maxSize: PLACEMENT_WRITE_BATCH, maxWaitMs: 2, maxConcurrent: PLACEMENT_WRITE_CONCURRENCY },
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly providers: TelephonyProviders,
    private readonly credentials: PhoneCredentials,
    private readonly attempts: AttemptsRepository,
    private readonly logs: PhoneLogsRepository,
    private readonly endings: AttemptEndings,
    private readonly events: AttemptEvents,
    private readonly placements: CallPlacementRepository,
    private readonly releases: AttemptReleases,
    private readonly clock: Clock,
    private readonly metrics: SwitchboardMetrics,
  ) {}

  async place(claim: Claim): Promise<PlacementResult> {
    const wait = claim.slot.getTime() - this.clock.now().getTime();
    // The number's pacing slot, within this tick's second (only above 1 call/s per number).
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1_000)));
    const now = this.clock.now();
    const allowed = await this.placements.markPlacing(
      claim.organizationId,
      claim.phoneLogId,
      now,
      new Date(now.getTime() + PLACEMENT_LEASE_SECONDS * 1000),
    );
    if (!allowed) {
      await this.withhold(claim);
      return 'withheld';
    }
    const { phone } = claim;
    const provider = this.providers.get(phone.integration);
    const { callbackToken, ...credentials } = this.credentials.open(
      claim.organizationId,
      phone.id,
      phone.credentials,
    );
    const urls = callbackUrlsFor(
      this.config.http.publicBaseUrl,
      phone.integration,
      phone.id,
      callbackToken,
    );
    let providerCallId: string;
    try {
      ({ providerCallId } = await provider.placeCall(credentials, {
        from: phone.phoneNumber,
        to: claim.to,
        urls: callbackUrlsForCall(urls, claim.phoneLogId),
        appId: phone.providerAppId ?? undefined,
        clientState: claim.phoneLogId,
        ringTimeoutSeconds: RING_TIMEOUT_SECONDS,
        timeLimitSeconds: claim.maxCallSeconds,
        record: claim.recordCalls,
        machineDetection: true,
      }));
    } catch (error) {
      if (error instanceof ProviderError && error.provesNothingDone) {
        const seconds = Math.min(
          NOT_PLACED_MAX_BACKOFF_SECONDS,
          Math.max(1, error.facts.retryAfterSeconds ?? NOT_PLACED_BACKOFF_SECONDS),
        );
        const retryAt = new Date(this.clock.now().getTime() + seconds * 1000);
        await this.writes.run(() =>
          this.releases.release(claim.phoneLogId, 'refused_unplaced', retryAt),
        );
        this.logger.warn(
          `Placement of ${claim.phoneLogId} refused unplaced, given back for ${seconds} s: ${error.message}`,
        );
        return 'released';
      }
      if (error instanceof ProviderError && !error.isOutage) {
        await this.refused(claim, error);
        return 'refused';
      }
      const reason = JSON.stringify(describeUnknown(error));
      this.logger.warn(`Placement of ${claim.phoneLogId} unknown, left to recovery: ${reason}`);
      return 'unknown';
    }
    this.metrics.callsPlaced.inc({ integration: phone.integration });
    await this.recordPlaced({ claim, providerCallId });
    return 'placed';
  }

  /**
   * Gives back a claim that was never sent (the dial check refused it, or no provider slot came
   * in time): where its record goes is decided from what stopped it (AttemptReleases).
   */
  withhold(claim: Claim, retryAt: Date | null = null): Promise<void> {
    return this.writes.run(async () => {
      await this.releases.release(claim.phoneLogId, 'never_sent', retryAt);
    });
  }

  /**
   * The call exists at the provider now: its id is written with a few tries (a busy pool, a
   * dropped connection). If all fail the lease expires with no id, and recovery ends the
   * attempt `placement_unknown` (the callbacks, which name the phone log, still reach it).
   */
  private async recordPlaced(call: PlacedCall): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const error = await this.placedWrites.add(call);
      if (!error) return;
      if (attempt >= PLACEMENT_WRITE_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  /**
   * One transaction for all, phone logs locked in id order (as every writer of several takes
   * them); if it fails, each on its own, so one bad write does not fail its neighbours.
   * Answers each call's error (undefined: written).
   */
  private async writePlaced(calls: PlacedCall[]): Promise<Array<Error | undefined>> {
    const ordered = [...calls].sort((a, b) => (a.claim.phoneLogId < b.claim.phoneLogId ? -1 : 1));
    try {
      await this.database.transaction(async () => {
        for (const call of ordered) await this.placed(call);
      });
      return calls.map(() => undefined);
    } catch (error) {
      if (calls.length === 1) return [asError(error)];
    }
    const errors: Array<Error | undefined> = [];
    for (const call of calls) {
      errors.push(
        await this.database
          .transaction(() => this.placed(call))
          .then(
            () => undefined,
            (error: unknown) => asError(error),
          ),
      );
    }
    return errors;
  }

  /** Inside the caller's transaction. */
  private async placed({ claim, providerCallId }: PlacedCall): Promise<void> {
    const attempt = await this.attempts.lock(claim.phoneLogId);
    if (!attempt) return;
    const now = this.clock.now();
    const { log } = attempt;
    const live = !isFinal(log.callStatus);
    await this.logs.update(log, {
      providerCallId,
      ...(log.placedAt ? {} : { placedAt: now }),
      // A final callback may have come first: then nothing is left to watch.
      leaseExpiresAt: live
        ? new Date(
            now.getTime() +
              (RING_TIMEOUT_SECONDS + claim.maxCallSeconds + LEASE_MARGIN_SECONDS) * 1000,
          )
        : null,
    });
    // call.started once: whoever (this or the first callback) finds placed_at still null; never
    // after the attempt's end (its call.failed is out already).
    if (!log.placedAt && live) {
      await this.events.started(attempt, claim.phone.integration);
    }
  }

  private refused(claim: Claim, error: ProviderError): Promise<void> {
    return this.writes.run(() => this.endRefused(claim, error));
  }

  private endRefused(claim: Claim, error: ProviderError): Promise<void> {
    return this.database.transaction(async () => {
      const attempt = await this.attempts.lock(claim.phoneLogId);
      if (!attempt || attempt.log.providerCallId) return;
      await this.endings.end(attempt, {
        status: 'failed',
        endedReason: 'provider_error',
        failureReason: 'provider_error',
        providerStatus: error.message,
        endedAt: this.clock.now(),
      });
    });
  }
}

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));
