import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { detach } from '../../common/detach';
import { NotificationsService } from '../notifications/notifications.service';
import {
  CIRCUIT_PROBE_INTERVAL_MS,
  CIRCUIT_WINDOW_MS,
  FailureWindow,
  shouldDisable,
  shouldOpen,
} from './circuit-rules';
import { DeliveryQueue } from './delivery-queue';
import { WebhookCircuitsRepository } from './webhook-circuits.repository';
import type { AttemptTrigger } from './webhook-deliveries.schema';

/** The 5-day auto-disable rule is checked at most this often per webhook and process. */
const DISABLE_CHECK_INTERVAL_MS = 10 * 60_000;
const DRAIN_BATCH = 500;

/**
 * The per-webhook circuit breaker (rules in circuit-rules.ts). Each worker process keeps the
 * failure statistics of what it sent; the circuit itself is a row, so every process holds a
 * webhook's deliveries once any of them opened it (the claim statement reads it).
 */
@Injectable()
export class CircuitBreaker {
  private readonly logger = new Logger('CircuitBreaker');
  private readonly windows = new Map<string, FailureWindow>();
  /** Webhooks this process opened, and when: not re-opened (re-written) for a probe interval. */
  private readonly openedHere = new Map<string, number>();
  private readonly disableCheckedAt = new Map<string, number>();
  private prunedAt = 0;

  constructor(
    private readonly circuits: WebhookCircuitsRepository,
    private readonly queue: DeliveryQueue,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
  ) {}

  async recordAttempt(
    webhook: { id: string; organizationId: string },
    trigger: AttemptTrigger,
    succeeded: boolean,
  ): Promise<void> {
    const now = this.clock.now();
    const nowMs = now.getTime();
    if (nowMs - this.prunedAt >= CIRCUIT_WINDOW_MS) this.prune(nowMs);
    let window = this.windows.get(webhook.id);
    if (!window) this.windows.set(webhook.id, (window = new FailureWindow()));
    window.record(succeeded, nowMs);
    const openedAt = this.openedHere.get(webhook.id);
    if (succeeded) {
      if (trigger !== 'probe' && openedAt === undefined) return;
      this.openedHere.delete(webhook.id);
      this.windows.delete(webhook.id);
      if (await this.circuits.closeCircuit(webhook.id)) {
        this.logger.log(`Circuit of webhook ${webhook.id} closed; releasing held deliveries`);
        await this.drain(webhook.id);
      }
      return;
    }
    const recentlyOpened = openedAt !== undefined && nowMs - openedAt < CIRCUIT_PROBE_INTERVAL_MS;
    if (!recentlyOpened && shouldOpen(window.stats(nowMs))) {
      this.openedHere.set(webhook.id, nowMs);
      await this.circuits.openCircuit(
        webhook.organizationId,
        webhook.id,
        now,
        new Date(nowMs + CIRCUIT_PROBE_INTERVAL_MS),
      );
    }
    await this.maybeDisable(webhook, now);
  }

  /** Webhooks this process keeps state for (tests, metrics). */
  trackedWebhooks(): number {
    return new Set([
      ...this.windows.keys(),
      ...this.openedHere.keys(),
      ...this.disableCheckedAt.keys(),
    ]).size;
  }

  /**
   * Drops what no longer decides anything, so a long-running worker does not keep every webhook
   * it ever sent to (deleted ones included): windows with nothing in the last 5 minutes,
   * "opened here" marks older than a probe interval, disable checks older than their interval.
   */
  private prune(nowMs: number): void {
    this.prunedAt = nowMs;
    for (const [id, window] of this.windows) if (window.isEmpty(nowMs)) this.windows.delete(id);
    for (const [id, at] of this.openedHere) {
      if (nowMs - at >= CIRCUIT_PROBE_INTERVAL_MS) this.openedHere.delete(id);
    }
    for (const [id, at] of this.disableCheckedAt) {
      if (nowMs - at >= DISABLE_CHECK_INTERVAL_MS) this.disableCheckedAt.delete(id);
    }
  }

  /** Queues every held delivery of the webhook again (its circuit has closed). */
  private async drain(webhookId: string): Promise<number> {
    let released = 0;
    for (;;) {
      const batch = await this.circuits.releaseHeld(webhookId, this.clock.now(), DRAIN_BATCH);
      await this.queue.enqueueDue(batch);
      released += batch.length;
      if (batch.length < DRAIN_BATCH) return released;
    }
  }

  private async maybeDisable(
    webhook: { id: string; organizationId: string },
    now: Date,
  ): Promise<void> {
    const checkedAt = this.disableCheckedAt.get(webhook.id);
    if (checkedAt !== undefined && now.getTime() - checkedAt < DISABLE_CHECK_INTERVAL_MS) return;
    this.disableCheckedAt.set(webhook.id, now.getTime());
    const streak = await this.circuits.failureStreak(webhook.id);
    if (!shouldDisable(streak, now)) return;
    if (!(await this.circuits.disableWebhook(webhook.id, 'failing', now))) return;
    this.logger.warn(`Webhook ${webhook.id} disabled: failing for 5 days`);
    detach(
      this.notifications.notifyAdmins(webhook.organizationId, {
        subject: 'A webhook was disabled: its endpoint has failed for 5 days',
        text:
          `Webhook ${webhook.id} has not accepted a delivery since ` +
          `${streak.firstFailureAt?.toISOString() ?? 'it was created'} ` +
          `(${streak.failures} failed attempts), so Switchboard stopped sending to it. ` +
          'Fix the endpoint, set the webhook active again, and recover the failed deliveries ' +
          'with POST /api/webhooks/{webhookId}/recover.',
      }),
      { what: 'Notice', logger: this.logger },
    );
  }
}
