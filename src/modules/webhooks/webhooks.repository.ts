import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { type WebhookRow, webhooks } from './webhooks.schema';

export type NewWebhook = Pick<
  typeof webhooks.$inferInsert,
  'id' | 'name' | 'url' | 'events' | 'secret'
>;

/** What the owner may change; `secret` arrives sealed. */
export type WebhookChanges = Partial<
  Pick<
    typeof webhooks.$inferInsert,
    | 'name'
    | 'url'
    | 'events'
    | 'active'
    | 'secret'
    | 'previousSecret'
    | 'previousSecretExpiresAt'
    | 'disabledReason'
    | 'disabledAt'
  >
>;

/** One webhook, only within its organization. */
const inOrganization = (organizationId: string, id: string) =>
  and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id));

/** Every read and write of the webhooks table; each query starts from the organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  /** The whole row (sealed secrets included): delivery reads it before every attempt. */
  async findById(organizationId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(webhooks)
      .where(inOrganization(organizationId, id));
    return row;
  }

  /** The organization of a webhook named by id alone: the operator CLI's look-up. */
  async organizationOf(id: string): Promise<string | undefined> {
    const [row] = await this.database.db
      .select({ organizationId: webhooks.organizationId })
      .from(webhooks)
      .where(eq(webhooks.id, id));
    return row?.organizationId;
  }

  async create(organizationId: string, values: NewWebhook): Promise<WebhookRow> {
    const [row] = await this.database.db
      .insert(webhooks)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /** Newest first. */
  async list(
    organizationId: string,
    page: number,
    limit: number,
  ): Promise<{ rows: WebhookRow[]; total: number }> {
    const where = eq(webhooks.organizationId, organizationId);
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(webhooks)
        .where(where)
        .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(webhooks).where(where),
    ]);
    return { rows, total };
  }

  /** Undefined when the webhook is not in the organization. */
  async update(
    organizationId: string,
    id: string,
    changes: WebhookChanges,
  ): Promise<WebhookRow | undefined> {
    const [row] = await this.database.db
      .update(webhooks)
      .set(changes)
      .where(inOrganization(organizationId, id))
      .returning();
    return row;
  }

  /**
   * Puts the new sealed secret in place and, in the same statement, the current one in
   * `previous_secret` until `previousExpiresAt` (null: the current one is dropped at once).
   */
  async rotateSecret(
    organizationId: string,
    id: string,
    sealedSecret: string,
    previousExpiresAt: Date | null,
  ): Promise<WebhookRow | undefined> {
    const keepPrevious = previousExpiresAt !== null;
    const [row] = await this.database.db
      .update(webhooks)
      .set({
        secret: sealedSecret,
        previousSecret: keepPrevious ? sql`${webhooks.secret}` : null,
        previousSecretExpiresAt: previousExpiresAt,
      })
      .where(inOrganization(organizationId, id))
      .returning();
    return row;
  }

  /** Hard delete: its deliveries go with it (ON DELETE CASCADE). */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.database.db
      .delete(webhooks)
      .where(inOrganization(organizationId, id))
      .returning({ id: webhooks.id });
    return deleted.length > 0;
  }
}
