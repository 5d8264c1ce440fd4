import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';

export interface NewEvent {
  id: string;
  type: string;
  callId: string | null;
  occurredAt: Date;
  data: Record<string, unknown>;
  /** SealedEventData's sealing of the payload's private fields, if any. */
  sealedData: string | null;
}

/** Which webhooks receive the event: the active subscribers of its type, or one (test). */
export type EventAudience = { subscribers: true } | { webhookId: string };

/** The outbox: events and the deliveries they fan out to. */
@Injectable()
export class EventsRepository {
  constructor(private readonly database: Database) {}

  /**
   * In one statement: the call's next sequence, the event row, and one pending delivery per
   * receiving webhook (due now). Must run in the caller's transaction: the sequence row stays
   * locked until it commits, which orders the sequences of one call by commit.
   */
  async insert(
    organizationId: string,
    event: NewEvent,
    audience: EventAudience,
  ): Promise<{ sequence: number; deliveryIds: string[] }> {
    const sequence =
      event.callId === null
        ? sql`SELECT 0 AS last_sequence`
        : sql`INSERT INTO event_sequences (organization_id, call_id, last_sequence)
            VALUES (${organizationId}, ${event.callId}, 1)
            ON CONFLICT (organization_id, call_id)
            DO UPDATE SET last_sequence = event_sequences.last_sequence + 1
            RETURNING last_sequence`;
    const receivers =
      'webhookId' in audience
        ? sql`w.id = ${audience.webhookId}`
        : sql`w.active AND w.events @> ARRAY[${event.type}]::text[]`;
    const result = await this.database.db.execute(sql`
      WITH seq AS (${sequence}),
      ev AS (
        INSERT INTO events
          (id, organization_id, type, call_id, sequence, occurred_at, data, sealed_data)
        SELECT ${event.id}, ${organizationId}, ${event.type}, ${event.callId}, seq.last_sequence,
          ${event.occurredAt.toISOString()}::timestamptz, ${JSON.stringify(event.data)}::jsonb,
          ${event.sealedData}
        FROM seq
        RETURNING id, sequence
      ),
      d AS (
        INSERT INTO webhook_deliveries
          (organization_id, webhook_id, event_id, event_type, next_attempt_at)
        SELECT ${organizationId}, w.id, ev.id, ${event.type}, ${event.occurredAt.toISOString()}::timestamptz
        FROM ev, webhooks w
        WHERE w.organization_id = ${organizationId} AND ${receivers}
        RETURNING id
      )
      SELECT (SELECT sequence FROM ev) AS sequence,
        coalesce((SELECT array_agg(id) FROM d), '{}') AS delivery_ids`);
    const [row] = rowsOf<{ sequence: number; delivery_ids: string[] }>(result);
    return { sequence: row.sequence, deliveryIds: row.delivery_ids };
  }

  /**
   * Deletes up to `limit` events older than `beforeId` (a time boundary, see eventIdBoundary)
   * whose deliveries have all ended, with their deliveries and attempt log (cascade). Events
   * with a pending or held delivery stay until it ends. Returns how many were deleted.
   */
  async deleteEndedBefore(beforeId: string, limit: number): Promise<number> {
    // Housekeeping: a batch with a long attempt log may outlast the request statement timeout.
    const result = await this.database.background(() =>
      this.database.db.execute(sql`
      DELETE FROM events WHERE id IN (
        SELECT e.id FROM events e
        WHERE e.id < ${beforeId} AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries d
          WHERE d.event_id = e.id AND d.status IN ('pending', 'held')
        )
        ORDER BY e.id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id`),
    );
    return rowsOf(result).length;
  }
}
