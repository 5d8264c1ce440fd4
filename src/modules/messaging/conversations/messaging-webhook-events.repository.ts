import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { Database } from '../../../database';
import { messagingWebhookEvents } from './messaging-conversations.schema';

/**
 * Raw deliveries of the platform's webhook. They belong to no organization until processed
 * (the numbers inside route them), so these queries take none.
 */
@Injectable()
export class MessagingWebhookEventsRepository {
  constructor(private readonly database: Database) {}

  async create(payload: unknown): Promise<string> {
    const [row] = await this.database.db
      .insert(messagingWebhookEvents)
      .values({ payload })
      .returning({ id: messagingWebhookEvents.id });
    return row.id;
  }

  async findUnprocessed(id: string): Promise<{ payload: unknown } | undefined> {
    const [row] = await this.database.db
      .select({
        payload: messagingWebhookEvents.payload,
        processedAt: messagingWebhookEvents.processedAt,
      })
      .from(messagingWebhookEvents)
      .where(eq(messagingWebhookEvents.id, id));
    return row && row.processedAt === null ? row : undefined;
  }

  async markProcessed(id: string, at: Date): Promise<void> {
    await this.database.db
      .update(messagingWebhookEvents)
      .set({ processedAt: at })
      .where(eq(messagingWebhookEvents.id, id));
  }
}
