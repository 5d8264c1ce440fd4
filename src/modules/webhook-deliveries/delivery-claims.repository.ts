import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { dueOf, type DueDelivery, toDate, toDateOrNull } from './delivery-rows';
import type {
  AttemptErrorClass,
  AttemptTrigger,
  DeliveryStatus,
} from './webhook-deliveries.schema';

/** A delivery claimed for one attempt, with what the attempt needs, read in the same statement. */
export interface ClaimedDelivery {
  id: string;
  /** sending: go ahead; held: the circuit is open; cancelled: the webhook is inactive. */
  status: 'sending' | 'held' | 'cancelled';
  trigger: AttemptTrigger;
  attemptNo: number;
  /** The claim's fencing token: the outcome is written only while the row still carries it. */
  leaseToken: number;
  event: {
    id: string;
    organizationId: string;
    type: string;
    callId: string | null;
    sequence: number;
    occurredAt: Date;
    data: Record<string, unknown>;
    /** The payload's sealed fields (SealedEventData), opened only to send. */
    sealedData: string | null;
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
  /** The token of the claim the attempt was made under. */
  leaseToken: number;
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

/** The delivery pipeline's statements: claim an attempt, record its outcome, take back lost ones. */
@Injectable()
export class DeliveryClaimsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Takes pending deliveries, each for attempt `attemptNo` (a job for another attempt number is
   * stale and gets nothing), in one statement: cancelled if the webhook is inactive, held if its
   * circuit is open (manual and probe sends go through), else leased (`sending`) until
   * `leaseUntil`, after which the sweeper may hand it out again. A row another transaction has
   * locked, or whose lease runs past `now`, is skipped: someone else is sending it, so this job
   * is the duplicate. Each lease gets a fresh token (the previous one plus 1). The lease and its
   * token are the only columns a send-ahead changes, so the row is updated in place (HOT).
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
        lease_token = CASE WHEN c.active AND NOT c.hold THEN d.lease_token + 1
          ELSE d.lease_token END,
        updated_at = now()
      FROM c, events e, webhooks w
      WHERE d.id = c.id AND e.id = d.event_id AND w.id = d.webhook_id
      RETURNING d.id, c.attempt_no, d.lease_token,
        CASE WHEN d.status = 'pending' THEN 'sending' ELSE d.status END AS status,
        d.next_trigger, e.id AS event_id, e.organization_id AS event_organization_id, e.type,
        e.call_id, e.sequence, e.occurred_at, e.data, e.sealed_data, w.id AS webhook_id,
        w.organization_id, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at`);
    const claimed = new Map<string, ClaimedDelivery>();
    for (const row of rowsOf<Record<string, unknown>>(result)) {
      claimed.set(row.id as string, {
        id: row.id as string,
        status: row.status as ClaimedDelivery['status'],
        trigger: row.next_trigger as AttemptTrigger,
        attemptNo: Number(row.attempt_no),
        leaseToken: Number(row.lease_token),
        event: {
          id: row.event_id as string,
          organizationId: row.event_organization_id as string,
          type: row.type as string,
          callId: row.call_id as string | null,
          sequence: Number(row.sequence),
          occurredAt: toDate(row.occurred_at),
          data: row.data as Record<string, unknown>,
          sealedData: row.sealed_data as string | null,
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
   * Moves a batch of deliveries on after their attempts and logs those attempts, in one
   * statement, ending their leases. Only a delivery still leased under the attempt's token
   * moves, and only its attempt is logged: one whose webhook was deleted, that the sweeper took
   * back, or that another worker claimed since (this worker's lease ran out) is left as is.
   */
  async recordOutcomes(outcomes: readonly AttemptOutcome[]): Promise<void> {
    const rows = outcomes.map((o) => ({
      delivery_id: o.deliveryId,
      webhook_id: o.webhookId,
      attempt_no: o.attemptNo,
      lease_token: o.leaseToken,
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
          delivery_id text, webhook_id text, attempt_no int, lease_token int, trigger text,
          succeeded boolean, url text, response_status int, response_body text, duration_ms int,
          error_class text, attempted_at timestamptz, status text, next_attempt_at timestamptz)
      ),
      moved AS (
        UPDATE webhook_deliveries d SET status = x.status, attempt_count = x.attempt_no,
          next_attempt_at = x.next_attempt_at, lease_until = NULL,
          last_attempt_at = x.attempted_at, next_trigger = 'scheduled', updated_at = now()
        FROM x WHERE d.id = x.delivery_id AND d.status = 'pending' AND d.lease_until IS NOT NULL
          AND d.lease_token = x.lease_token AND d.attempt_count = x.attempt_no - 1
          AND d.id = ANY(ARRAY(SELECT delivery_id FROM x))
        RETURNING d.id
      )
      INSERT INTO webhook_delivery_attempts (delivery_id, webhook_id, attempt_no, trigger,
        succeeded, url, response_status, response_body, duration_ms, error_class,
        next_attempt_at, attempted_at)
      SELECT x.delivery_id, x.webhook_id, x.attempt_no, x.trigger, x.succeeded, x.url,
        x.response_status, x.response_body, x.duration_ms, x.error_class, x.next_attempt_at,
        x.attempted_at
      FROM x JOIN moved ON moved.id = x.delivery_id`);
  }

  /**
   * Hands claimed deliveries back without an attempt (their endpoint or organization had no
   * free slot): each is pending again, due at its `until`, with no lease, so the job queued for
   * that time can claim it and the sweeper leaves it alone until then. Only under the claim's
   * token, like an outcome.
   */
  async defer(
    items: ReadonlyArray<{
      deliveryId: string;
      attemptNo: number;
      leaseToken: number;
      until: Date;
    }>,
  ): Promise<void> {
    const input = JSON.stringify(
      items.map((i) => ({
        id: i.deliveryId,
        attempt_no: i.attemptNo,
        lease_token: i.leaseToken,
        until: i.until.toISOString(),
      })),
    );
    await this.database.db.execute(sql`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(id text, attempt_no int,
          lease_token int, until timestamptz)
      )
      UPDATE webhook_deliveries d SET next_attempt_at = x.until, lease_until = NULL,
        updated_at = now()
      FROM x WHERE d.id = x.id AND d.status = 'pending' AND d.lease_until IS NOT NULL
        AND d.lease_token = x.lease_token AND d.attempt_count = x.attempt_no - 1
        AND d.id = ANY(ARRAY(SELECT id FROM x))`);
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
}
