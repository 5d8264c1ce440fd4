import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { dueOf, type DueDelivery } from './delivery-rows';
import { hasReportedStatus } from './delivery-status';
import {
  type DeliveryStatus,
  webhookDeliveries,
  webhookDeliveryAttempts,
  type WebhookDeliveryAttemptRow,
  type WebhookDeliveryRow,
} from './webhook-deliveries.schema';

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  since?: Date;
  until?: Date;
}

/** The delivery log API's statements: list, read, and make deliveries due again by hand. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly database: Database) {}

  /**
   * The webhooks (with their organization) holding deliveries that ended failed in
   * [since, until), in every organization unless one is named: the operator CLI's replay.
   */
  async webhooksWithFailed(
    window: { since: Date; until?: Date },
    organizationId?: string,
  ): Promise<Array<{ organizationId: string; webhookId: string }>> {
    return this.database.db
      .selectDistinct({
        organizationId: webhookDeliveries.organizationId,
        webhookId: webhookDeliveries.webhookId,
      })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'failed'),
          gte(webhookDeliveries.lastAttemptAt, window.since),
          window.until ? lt(webhookDeliveries.lastAttemptAt, window.until) : undefined,
          organizationId ? eq(webhookDeliveries.organizationId, organizationId) : undefined,
        ),
      )
      .orderBy(webhookDeliveries.organizationId, webhookDeliveries.webhookId);
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
}
