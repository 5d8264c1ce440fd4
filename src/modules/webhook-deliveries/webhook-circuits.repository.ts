import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { webhooks, type WebhookDisabledReason } from '../webhooks/webhooks.schema';
import { dueOf, type DueDelivery, toDateOrNull } from './delivery-rows';
import { webhookCircuits } from './webhook-deliveries.schema';

/** The webhooks' circuits, the deliveries they hold, and switching a failing webhook off. */
@Injectable()
export class WebhookCircuitsRepository {
  constructor(private readonly database: Database) {}

  /** Switches a webhook off for delivery reasons (410 Gone, failing for days). */
  async disableWebhook(
    webhookId: string,
    reason: WebhookDisabledReason,
    at: Date,
  ): Promise<boolean> {
    const changed = await this.database.db
      .update(webhooks)
      .set({ active: false, disabledReason: reason, disabledAt: at })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.active, true)))
      .returning({ id: webhooks.id });
    return changed.length > 0;
  }

  /** Opens the webhook's circuit (again); the first probe goes out at `nextProbeAt`. */
  async openCircuit(organizationId: string, webhookId: string, now: Date, nextProbeAt: Date) {
    await this.database.db
      .insert(webhookCircuits)
      .values({ webhookId, organizationId, state: 'open', openedAt: now, nextProbeAt })
      .onConflictDoUpdate({
        target: webhookCircuits.webhookId,
        set: { state: 'open', openedAt: now, nextProbeAt },
        setWhere: eq(webhookCircuits.state, 'closed'),
      });
  }

  /** Closes the circuit; true when this call closed it (so exactly one caller drains). */
  async closeCircuit(webhookId: string): Promise<boolean> {
    const closed = await this.database.db
      .update(webhookCircuits)
      .set({ state: 'closed' })
      .where(and(eq(webhookCircuits.webhookId, webhookId), eq(webhookCircuits.state, 'open')))
      .returning({ id: webhookCircuits.webhookId });
    return closed.length > 0;
  }

  /**
   * Open circuits of active webhooks whose probe is due (a disabled webhook keeps its held
   * deliveries until it is switched on again): each gets its next probe time moved on (so one process
   * probes it) and its oldest held delivery released as the probe. Returns those probes.
   */
  async takeProbes(now: Date, nextProbeAt: Date): Promise<DueDelivery[]> {
    const result = await this.database.db.execute(sql`
      WITH due AS (
        UPDATE webhook_circuits SET next_probe_at = ${nextProbeAt.toISOString()}::timestamptz,
          updated_at = now()
        WHERE webhook_id IN (
          SELECT c.webhook_id FROM webhook_circuits c JOIN webhooks w ON w.id = c.webhook_id
          WHERE c.state = 'open' AND w.active
            AND c.next_probe_at <= ${now.toISOString()}::timestamptz
          FOR UPDATE OF c SKIP LOCKED
        )
        RETURNING webhook_id
      ),
      probe AS (
        SELECT DISTINCT ON (d.webhook_id) d.id FROM webhook_deliveries d JOIN due USING (webhook_id)
        WHERE d.status = 'held' ORDER BY d.webhook_id, d.created_at, d.id
      )
      UPDATE webhook_deliveries d SET status = 'pending', next_trigger = 'probe',
        next_attempt_at = ${now.toISOString()}::timestamptz, updated_at = now()
      FROM probe WHERE d.id = probe.id
      RETURNING d.id, d.attempt_count, d.next_trigger`);
    return dueOf(rowsOf(result));
  }

  /** Releases up to `limit` held deliveries of a webhook (after its circuit closed). */
  async releaseHeld(webhookId: string, now: Date, limit: number): Promise<DueDelivery[]> {
    const result = await this.database.db.execute(sql`
      UPDATE webhook_deliveries d SET status = 'pending', next_trigger = 'scheduled',
        next_attempt_at = ${now.toISOString()}::timestamptz, updated_at = now()
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'held'
        ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING d.id, d.attempt_count, d.next_trigger`);
    return dueOf(rowsOf(result));
  }

  /**
   * Held deliveries whose circuit is no longer open (closed by another process, or a drain cut
   * short): the sweeper releases them.
   */
  async releaseStrayHeld(now: Date, limit: number): Promise<DueDelivery[]> {
    const result = await this.database.db.execute(sql`
      UPDATE webhook_deliveries d SET status = 'pending', next_trigger = 'scheduled',
        next_attempt_at = ${now.toISOString()}::timestamptz, updated_at = now()
      WHERE d.id IN (
        SELECT h.id FROM webhook_deliveries h
        WHERE h.status = 'held' AND NOT EXISTS (
          SELECT 1 FROM webhook_circuits c WHERE c.webhook_id = h.webhook_id AND c.state = 'open'
        )
        ORDER BY h.created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING d.id, d.attempt_count, d.next_trigger`);
    return dueOf(rowsOf(result));
  }

  /** Last success and failed attempts since then, for the 5-day auto-disable rule. */
  async failureStreak(
    webhookId: string,
  ): Promise<{ lastSuccessAt: Date | null; failures: number; firstFailureAt: Date | null }> {
    const result = await this.database.db.execute(sql`
      WITH last_ok AS (
        SELECT max(attempted_at) AS at FROM webhook_delivery_attempts
        WHERE webhook_id = ${webhookId} AND succeeded
      )
      SELECT (SELECT at FROM last_ok) AS last_success_at, count(*)::int AS failures,
        min(a.attempted_at) AS first_failure_at
      FROM webhook_delivery_attempts a
      WHERE a.webhook_id = ${webhookId} AND NOT a.succeeded
        AND a.attempted_at > coalesce((SELECT at FROM last_ok), '-infinity')`);
    const [row] = rowsOf<{ last_success_at: unknown; failures: number; first_failure_at: unknown }>(
      result,
    );
    return {
      lastSuccessAt: toDateOrNull(row.last_success_at),
      failures: Number(row.failures),
      firstFailureAt: toDateOrNull(row.first_failure_at),
    };
  }
}
