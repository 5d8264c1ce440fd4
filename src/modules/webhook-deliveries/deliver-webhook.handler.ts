import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { signWebhook } from '@app/webhooks';
import { type AppConfig, InjectConfig } from '../../config';
import { Clock } from '../../common/clock';
import { MicroBatcher } from '../../common/micro-batcher';
import { SwitchboardMetrics } from '../../metrics/switchboard-metrics';
import { type HandlesJob, JobHandler, JobName, type JobPayloads } from '../../queue';
import { checkUrlShape, WebhookTargetGuard } from '../webhooks/ssrf';
import { WebhookSecrets } from '../webhooks/webhook-secrets';
import { SealedEventData } from '../events/sealed-event-data';
import { AttemptLog } from './attempt-log';
import { CircuitBreaker } from './circuit-breaker';
import { DeliveryAdmission, type Slot } from './delivery-admission';
import { DeliveryQueue } from './delivery-queue';
import { parseRetryAfter } from '../../http/retry-after';
import { nextRetryDelayMs } from './delivery-schedule';
import { ATTEMPT_TIMEOUT_MS, type AttemptResult, DeliverySender } from './delivery-sender';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  DeliveryClaimsRepository,
} from './delivery-claims.repository';
import { WebhookCircuitsRepository } from './webhook-circuits.repository';

/** `User-Agent` of every delivery; the version is that of the payload contract. */
export const DELIVERY_USER_AGENT = 'Switchboard-Webhooks/1.0';
/** A claimed delivery is the worker's for this long; then the sweeper may hand it out again. */
const CLAIM_LEASE_MS = ATTEMPT_TIMEOUT_MS + 15_000;

/**
 * Claims of jobs that start within a few ms of each other are made in one statement, one
 * statement at a time: under load that means fuller batches (PostgreSQL CPU per delivery fell
 * from ~93 to ~79 µs with the attempt log batched the same way; docs/benchmarks.md).
 */
const CLAIM_BATCH = { maxSize: 100, maxWaitMs: 2, maxConcurrent: 1 };

interface ClaimRequest {
  deliveryId: string;
  attemptNo: number;
}

interface Deferral extends ClaimRequest {
  leaseToken: number;
  until: Date;
}

/** Injection token of the random source of the retry jitter (tests pin it). */
export const DELIVERY_RANDOM = Symbol('DELIVERY_RANDOM');

/**
 * Runs one attempt of one delivery: claim it (re-reading the webhook, so PATCHed settings apply
 * at once), admit it or hand it back for later (delivery-admission.ts), open the event's sealed
 * fields into its payload, sign the exact bytes, send, log, and schedule the next attempt itself
 * (a delayed job with a per-attempt id) so the schedule is the same on BullMQ and in-process.
 */
@JobHandler(JobName.DeliverWebhook)
export class DeliverWebhookHandler
  implements HandlesJob<JobName.DeliverWebhook>, OnApplicationShutdown
{
  private readonly sender: DeliverySender;
  private readonly allowPrivateTargets: boolean;
  private readonly claims = new MicroBatcher<ClaimRequest, ClaimedDelivery | undefined>(
    async (requests) => {
      const now = this.clock.now();
      const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
      const claimed = await this.deliveries.claim(requests, now, leaseUntil);
      return requests.map((request) => {
        const delivery = claimed.get(request.deliveryId);
        if (delivery?.attemptNo !== request.attemptNo) return undefined;
        // One lease, one holder: a second job for it in the same batch gets nothing.
        claimed.delete(request.deliveryId);
        return delivery;
      });
    },
    CLAIM_BATCH,
  );
  private readonly admission = new DeliveryAdmission();
  private readonly deferrals = new MicroBatcher<Deferral, void>(async (items) => {
    await this.deliveries.defer(items);
    return items.map(() => undefined);
  }, CLAIM_BATCH);

  constructor(
    @InjectConfig() config: AppConfig,
    guard: WebhookTargetGuard,
    private readonly deliveries: DeliveryClaimsRepository,
    private readonly circuits: WebhookCircuitsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly sealedData: SealedEventData,
    private readonly log: AttemptLog,
    private readonly breaker: CircuitBreaker,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly metrics: SwitchboardMetrics,
    @Inject(DELIVERY_RANDOM) private readonly random: () => number,
  ) {
    this.allowPrivateTargets = config.webhooks.allowPrivateTargets;
    this.sender = new DeliverySender(guard.lookup);
  }

  async handle({ deliveryId, attempt }: JobPayloads[JobName.DeliverWebhook]): Promise<void> {
    const claimed = await this.claims.add({ deliveryId, attemptNo: attempt });
    // Stale job, finished delivery, webhook deleted (cascade), inactive (cancelled) or held.
    if (!claimed || claimed.status !== 'sending') return;
    // Admission runs on the monotonic clock: tests move the Clock by minutes.
    const slot = this.admission.admit(
      claimed.webhook.id,
      claimed.webhook.organizationId,
      performance.now(),
    );
    if (!slot) return this.defer(claimed);
    let result: AttemptResult;
    try {
      result = await this.send(claimed, slot);
    } finally {
      this.admission.release(slot, performance.now());
    }
    const outcome = this.outcomeOf(claimed, result);
    this.metrics.observeWebhookAttempt(
      outcome.status === 'pending' ? 'retrying' : outcome.status,
      outcome.durationMs / 1000,
    );
    await this.log.record(outcome);
    if (outcome.status === 'pending' && outcome.nextAttemptAt) {
      await this.queue.enqueue(deliveryId, attempt + 1, {
        delayMs: outcome.nextAttemptAt.getTime() - this.clock.now().getTime(),
      });
    }
    if (result.kind === 'response' && result.status === 410) {
      await this.circuits.disableWebhook(claimed.webhook.id, 'gone', outcome.attemptedAt);
    }
    await this.breaker.recordAttempt(claimed.webhook, claimed.trigger, outcome.succeeded);
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  /** No slot for the endpoint or its organization: hand the delivery back until one is free. */
  private async defer(claimed: ClaimedDelivery): Promise<void> {
    const delayMs = this.admission.deferMs(claimed.webhook.id, performance.now(), this.random());
    const until = new Date(this.clock.now().getTime() + delayMs);
    await this.deferrals.add({
      deliveryId: claimed.id,
      attemptNo: claimed.attemptNo,
      leaseToken: claimed.leaseToken,
      until,
    });
    await this.queue.enqueue(claimed.id, claimed.attemptNo, {
      delayMs,
      trigger: claimed.trigger,
      deferredUntil: until,
    });
  }

  private async send(claimed: ClaimedDelivery, slot: Slot): Promise<AttemptResult> {
    // IP-literal hosts never reach `lookup`: check the URL itself before every attempt.
    const shape = checkUrlShape(claimed.webhook.url, this.allowPrivateTargets);
    if (!shape.allowed) return { kind: 'error', errorClass: 'ssrf_blocked', durationMs: 0 };
    const { event } = claimed;
    const occurredAt = event.occurredAt.toISOString();
    const data = this.sealedData.payload(event);
    const body = JSON.stringify({
      type: event.type,
      timestamp: occurredAt,
      data:
        event.callId === null
          ? { ...data, occurred_at: occurredAt }
          : { call_id: event.callId, sequence: event.sequence, occurred_at: occurredAt, ...data },
    });
    const now = this.clock.now();
    const secrets = this.secrets.signingSecrets(claimed.webhook, now);
    return this.sender.send({
      url: shape.url,
      body,
      onConnected: () => this.admission.connected(slot, performance.now()),
      headers: {
        'content-type': 'application/json',
        'user-agent': DELIVERY_USER_AGENT,
        ...signWebhook({ id: event.id, timestamp: now, body, secrets }),
      },
    });
  }

  private outcomeOf(claimed: ClaimedDelivery, result: AttemptResult): AttemptOutcome {
    const attemptedAt = this.clock.now();
    const base = {
      deliveryId: claimed.id,
      webhookId: claimed.webhook.id,
      attemptNo: claimed.attemptNo,
      leaseToken: claimed.leaseToken,
      trigger: claimed.trigger,
      url: claimed.webhook.url,
      durationMs: result.durationMs,
      attemptedAt,
      responseStatus: result.kind === 'response' ? result.status : null,
      responseBody: result.kind === 'response' ? result.body : null,
    };
    if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
      return {
        ...base,
        succeeded: true,
        errorClass: null,
        status: 'succeeded',
        nextAttemptAt: null,
      };
    }
    const failed = {
      ...base,
      succeeded: false,
      errorClass: result.kind === 'response' ? ('http_status' as const) : result.errorClass,
    };
    // 410 Gone: the receiver asks us to stop; the webhook is switched off.
    if (result.kind === 'response' && result.status === 410) {
      return { ...failed, status: 'failed', nextAttemptAt: null };
    }
    const delay = nextRetryDelayMs({
      attemptNo: claimed.attemptNo,
      retryAfterMs:
        result.kind === 'response' ? parseRetryAfter(result.retryAfter, attemptedAt) : undefined,
      overloaded:
        (result.kind === 'response' && result.status === 429) ||
        (result.kind === 'error' && result.errorClass === 'timeout'),
      random: this.random(),
    });
    return delay === undefined
      ? { ...failed, status: 'failed', nextAttemptAt: null }
      : { ...failed, status: 'pending', nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
  }
}
