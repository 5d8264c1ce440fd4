import { Injectable } from '@nestjs/common';
import { withTimeout } from '../../common/with-timeout';
import { JobName, JobQueue } from '../../queue';
import type { AttemptTrigger } from './webhook-deliveries.schema';

/**
 * The job id of one attempt of one delivery. Scheduled attempts use `whd-<delivery>-<n>`, so
 * the sweeper re-enqueueing attempt n dedupes against a job Redis still holds; manual and
 * recovery sends get their own suffix, so a retry waiting for hours does not swallow them; a
 * deferred attempt is named by the time it comes back (the job deferring it is still running).
 */
export function deliveryJobId(
  deliveryId: string,
  attempt: number,
  trigger: AttemptTrigger,
  deferredUntil?: Date,
): string {
  const suffix = trigger === 'manual' || trigger === 'recover' ? `-${trigger}` : '';
  const deferred = deferredUntil ? `-d${deferredUntil.getTime()}` : '';
  return `whd-${deliveryId}-${attempt}${suffix}${deferred}`;
}

/**
 * How long an enqueue may take before it counts as failed. While Redis is reconnecting an add
 * can wait instead of failing; the caller (an after-commit hook, a request) must not wait with it.
 */
export const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * Queues delivery attempts. PostgreSQL holds the truth (status, attempt count, next_attempt_at):
 * a job is only a wake-up call, so losing one (Redis down or flushed) delays a delivery until
 * the sweeper re-enqueues it, and never loses it. Enqueue failures are therefore not errors.
 */
@Injectable()
export class DeliveryQueue {
  constructor(private readonly queue: JobQueue) {}

  async enqueue(
    deliveryId: string,
    attempt: number,
    options: { delayMs?: number; trigger?: AttemptTrigger; deferredUntil?: Date } = {},
  ): Promise<boolean> {
    try {
      await withTimeout(
        this.queue.enqueue(
          JobName.DeliverWebhook,
          { deliveryId, attempt },
          {
            jobId: deliveryJobId(
              deliveryId,
              attempt,
              options.trigger ?? 'scheduled',
              options.deferredUntil,
            ),
            delayMs:
              options.delayMs && options.delayMs > 0 ? Math.round(options.delayMs) : undefined,
            transient: true,
          },
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      return true;
    } catch {
      return false;
    }
  }

  /** Every first attempt; how many were queued (the rest wait for the sweeper). */
  enqueueFirst(deliveryIds: readonly string[]): Promise<number> {
    return this.enqueueDue(deliveryIds.map((id) => ({ id, attemptNo: 1, trigger: 'scheduled' })));
  }

  /** Deliveries made due again (sweeper, circuit, manual recovery); how many were queued. */
  async enqueueDue(
    due: ReadonlyArray<{ id: string; attemptNo: number; trigger: AttemptTrigger }>,
  ): Promise<number> {
    const queued = await Promise.all(
      due.map((delivery) =>
        this.enqueue(delivery.id, delivery.attemptNo, { trigger: delivery.trigger }),
      ),
    );
    return queued.filter(Boolean).length;
  }
}
