import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { type WebhookRow, webhooks } from './webhooks.schema';

/** Every read and write of the webhooks table; each query starts from the organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  /** The whole row (sealed secrets included): delivery reads it before every attempt. */
  async findById(organizationId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id)));
    return row;
  }
}
