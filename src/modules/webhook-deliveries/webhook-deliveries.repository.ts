import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { hasReportedStatus } from './delivery-status';
import { webhooks, type WebhookDisabledReason } from '../webhooks/webhooks.schema';
import {
  type AttemptErrorClass,
  type AttemptTrigger,
  type DeliveryStatus,
  webhookCircuits,
  webhookDeliveries,
  webhookDeliveryAttempts,
  type WebhookDeliveryAttemptRow,
  type WebhookDeliveryRow,
} from './webhook-deliveries.schema';

/** A delivery claimed for one attempt, with what the attempt needs, read in the same statement. */
export interface ClaimedDelivery {
  id: string;
  /** sending: go ahead; held: the circuit is open; cancelled: the webhook is inactive. */
  status: 'sending' | 'held' | 'cancelled';
  trigger: AttemptTrigger;
  attemptNo: number;
  event: {
    id: string;
    type: string;
    callId: string | null;
    sequence: number;
    occurredAt: Date;
    data: Record<string, unknown>;
  };
  webhook: {
    id: string;
    organizationId: string;
    url: string;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
  };
}

/** One finished attempt and where it leaves its delivery. */
export interface AttemptOutcome {
  deliveryId: string;
  webhookId: string;
  attemptNo: number;
  trigger: AttemptTrigger;
  succeeded: boolean;
  url: string;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  errorClass: AttemptErrorClass | null;
  attemptedAt: Date;
  /** The delivery's status after the attempt. */
  status: Extract<DeliveryStatus, 'pending' | 'succeeded' | 'failed'>;
  nextAttemptAt: Date | null;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  since?: Date;
  until?: Date;
}

/** A delivery due again: its next attempt's number and trigger. */
export interface DueDelivery {
  id: string;
  attemptNo: number;
  trigger: AttemptTrigger;
}

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

const dueOf = (rows: Array<{ id: string; attempt_count: number; next_trigger: AttemptTrigger }>) =>
  rows.map((row) => ({ id: row.id, attemptNo: row.attempt_count + 1, trigger: row.next_trigger }));

/** Deliveries, their attempt log and the webhooks' circuits. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Takes pending deliveries, each for attempt `attemptNo` (a job for another attempt number is
   * stale and gets nothing), in one statement: cancelled if the webhook is inactive, held if its
   * circuit is open (manual and probe sends go through), else leased (`sending`) until
   * `leaseUntil`, after which the sweeper may hand it out again. A row another transaction has
   * locked, or whose lease runs past `now`, is skipped: someone else is sending it, so this job
   * is the duplicate. The lease is the only column a send-ahead changes, so the row is updated
   * in place (HOT).
   *
   * `d.id = ANY(ARRAY(…))` here and in recordOutcomes gives the planner an index condition on
   * the primary key: just after a bulk fan-out the statistics are stale, and a join on x alone
   * was planned as a scan of the whole table per batch.
   */
  async claim(
    requests: ReadonlyArray<{ deliveryId: string; attemptNo: number }>,
    now: Date,
    leaseUntil: Date,
  ): Promise<Map<string, ClaimedDelivery>> {
    const input = JSON.stringify(
      requests.map((r) => ({ id: r.deliveryId, attempt_no: r.attemptNo })),
    );
    const result = await this.database.db.execute(sql`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(id text, attempt_no int)
      ),
      c AS (
        SELECT d.id, x.attempt_no, w.active, d.next_trigger IN ('scheduled', 'recover') AND EXISTS (
          SELECT 1 FROM webhook_circuits wc WHERE wc.webhook_id = d.webhook_id AND wc.state = 'open'
        ) AS hold
        FROM webhook_deliveries d
        JOIN x ON x.id = d.id AND d.attempt_count = x.attempt_no - 1
        JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.status = 'pending' AND d.id = ANY(ARRAY(SELECT id FROM x))
          AND (d.lease_until IS NULL OR d.lease_until <= ${now.toISOString()}::timestamptz)
        FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE webhook_deliveries d SET
        status = CASE WHEN NOT c.active THEN 'cancelled' WHEN c.hold THEN 'held' ELSE d.status END,
        next_attempt_at = CASE WHEN c.active AND NOT c.hold THEN d.next_attempt_at END,
        lease_until = CASE WHEN c.active AND NOT c.hold
          THEN ${leaseUntil.toISOString()}::timestamptz END,
        updated_at = now()
      FROM c, events e, webhooks w
      WHERE d.id = c.id AND e.id = d.event_id AND w.id = d.webhook_id
      RETURNING d.id, c.attempt_no,
        CASE WHEN d.status = 'pending' THEN 'sending' ELSE d.status END AS status,
        d.next_trigger, e.id AS event_id, e.type, e.call_id,
        e.sequence, e.occurred_at, e.data, w.id AS webhook_id, w.organization_id, w.url, w.secret,
        w.previous_secret, w.previous_secret_expires_at`);
    const claimed = new Map<string, ClaimedDelivery>();
    for (const row of rowsOf<Record<string, unknown>>(result)) {
      claimed.set(row.id as string, {
        id: row.id as string,
        status: row.status as ClaimedDelivery['status'],
        trigger: row.next_trigger as AttemptTrigger,
        attemptNo: Number(row.attempt_no),
        event: {
          id: row.event_id as string,
          type: row.type as string,
          callId: row.call_id as string | null,
          sequence: Number(row.sequence),
          occurredAt: toDate(row.occurred_at),
          data: row.data as Record<string, unknown>,
        },
        webhook: {
          id: row.webhook_id as string,
          organizationId: row.organization_id as string,
          url: row.url as string,
          secret: row.secret as string,
          previousSecret: row.previous_secret as string | null,
          previousSecretExpiresAt: toDateOrNull(row.previous_secret_expires_at),
        },
      });
    }
    return claimed;
  }

  /**
   * Logs a batch of attempts and moves their deliveries on, in one statement, ending their
   * leases. A delivery that is no longer leased for this attempt (its webhook was deleted, or
   * the sweeper took it back) is left as is.
   */
  async recordOutcomes(outcomes: readonly AttemptOutcome[]): Promise<void> {
    const rows = outcomes.map((o) => ({
      delivery_id: o.deliveryId,
      webhook_id: o.webhookId,
      attempt_no: o.attemptNo,
      trigger: o.trigger,
      succeeded: o.succeeded,
      url: o.url,
      response_status: o.responseStatus,
      response_body: o.responseBody,
      duration_ms: o.durationMs,
      error_class: o.errorClass,
      attempted_at: o.attemptedAt.toISOString(),
      status: o.status,
      next_attempt_at: o.nextAttemptAt?.toISOString() ?? null,
    }));
    await this.database.db.execute(sql`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
          delivery_id text, webhook_id text, attempt_no int, trigger text, succeeded boolean,
          url text, response_status int, response_body text, duration_ms int, error_class text,
          attempted_at timestamptz, status text, next_attempt_at timestamptz)
      ),
      logged AS (
        INSERT INTO webhook_delivery_attempts (delivery_id, webhook_id, attempt_no, trigger,
          succeeded, url, response_status, response_body, duration_ms, error_class,
          next_attempt_at, attempted_at)
        SELECT x.delivery_id, x.webhook_id, x.attempt_no, x.trigger, x.succeeded, x.url,
          x.response_status, x.response_body, x.duration_ms, x.error_class, x.next_attempt_at,
          x.attempted_at
        FROM x JOIN webhook_deliveries d ON d.id = x.delivery_id
        WHERE d.id = ANY(ARRAY(SELECT delivery_id FROM x))
      )
      UPDATE webhook_deliveries d SET status = x.status, attempt_count = x.attempt_no,
        next_attempt_at = x.next_attempt_at, lease_until = NULL, last_attempt_at = x.attempted_at,
        next_trigger = 'scheduled', updated_at = now()
      FROM x WHERE d.id = x.delivery_id AND d.status = 'pending' AND d.lease_until IS NOT NULL
        AND d.attempt_count = x.attempt_no - 1 AND d.id = ANY(ARRAY(SELECT delivery_id FROM x))`);
  }

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

  /**
   * Deliveries whose job should have run by `cutoff` but has not: pending ones (their job was
   * lost with Redis) and leased ones whose lease ran out by then (their worker died). They
   * become pending without a lease, due again at `now`, so one sweep hands each out once.
   */
  async takeOverdue(cutoff: Date, now: Date, limit: number): Promise<DueDelivery[]> {
    const result = await this.database.db.execute(sql`
      UPDATE webhook_deliveries d SET next_attempt_at = ${now.toISOString()}::timestamptz,
        lease_until = NULL, updated_at = now()
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < ${cutoff.toISOString()}::timestamptz
          AND (lease_until IS NULL OR lease_until < ${cutoff.toISOString()}::timestamptz)
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING d.id, d.attempt_count, d.next_trigger`);
    return dueOf(rowsOf(result));
  }

  /** A manual send of one delivery now; undefined when it is not there or in flight. */
  async markManual(
    organizationId: string,
    webhookId: string,
    deliveryId: string,
    now: Date,
  ): Promise<DueDelivery | undefined> {
    const result = await this.database.db.execute(sql`
      UPDATE webhook_deliveries SET status = 'pending', next_trigger = 'manual',
        next_attempt_at = ${now.toISOString()}::timestamptz, lease_until = NULL, updated_at = now()
      WHERE id = ${deliveryId} AND organization_id = ${organizationId}
        AND webhook_id = ${webhookId}
        AND (status <> 'pending' OR lease_until IS NULL
          OR lease_until <= ${now.toISOString()}::timestamptz)
      RETURNING id, attempt_count, next_trigger`);
    return dueOf(rowsOf(result))[0];
  }

  /** Every delivery of the webhook that ended failed in [since, until): due again now. */
  async markRecover(
    organizationId: string,
    webhookId: string,
    window: { since: Date; until?: Date },
    now: Date,
  ): Promise<DueDelivery[]> {
    const until = window.until
      ? sql`AND last_attempt_at < ${window.until.toISOString()}::timestamptz`
      : sql``;
    const result = await this.database.db.execute(sql`
      UPDATE webhook_deliveries SET status = 'pending', next_trigger = 'recover',
        next_attempt_at = ${now.toISOString()}::timestamptz, updated_at = now()
      WHERE organization_id = ${organizationId} AND webhook_id = ${webhookId}
        AND status = 'failed' AND last_attempt_at >= ${window.since.toISOString()}::timestamptz ${until}
      RETURNING id, attempt_count, next_trigger`);
    return dueOf(rowsOf(result));
  }

  async findDelivery(
    organizationId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.organizationId, organizationId),
          eq(webhookDeliveries.webhookId, webhookId),
          eq(webhookDeliveries.id, deliveryId),
        ),
      );
    return row;
  }

  /** A page of the webhook's deliveries, newest first, and the total matching the filter. */
  async list(
    organizationId: string,
    webhookId: string,
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
    now: Date,
  ): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
    const conditions: Array<SQL | undefined> = [
      eq(webhookDeliveries.organizationId, organizationId),
      eq(webhookDeliveries.webhookId, webhookId),
    ];
    if (filter.status) conditions.push(hasReportedStatus(filter.status, now));
    if (filter.eventType) conditions.push(eq(webhookDeliveries.eventType, filter.eventType));
    if (filter.since) conditions.push(gte(webhookDeliveries.createdAt, filter.since));
    if (filter.until) conditions.push(lt(webhookDeliveries.createdAt, filter.until));
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .offset(page.offset)
        .limit(page.limit),
      this.database.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ]);
    return { rows, total };
  }

  async attemptsOf(deliveryIds: readonly string[]): Promise<WebhookDeliveryAttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.database.db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.deliveryId, [...deliveryIds]))
      .orderBy(asc(webhookDeliveryAttempts.deliveryId), asc(webhookDeliveryAttempts.attemptNo));
  }

  // --- circuit breaker -------------------------------------------------------------------

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
