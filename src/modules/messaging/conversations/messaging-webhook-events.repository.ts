import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { MicroBatcher } from '../../../common/micro-batcher';
import { Database } from '../../../database';
import { messagingWebhookEvents } from './messaging-conversations.schema';

/**
 * Deliveries arriving within a few milliseconds of each other are stored by one multi-row
 * INSERT, at most two at a time (group commit): at hundreds of deliveries a second the webhook
 * would otherwise queue for pooled connections one statement each.
 */
export const WEBHOOK_EVENT_BATCH = { maxSize: 100, maxWaitMs: 2, maxConcurrent: 2 };

/**
 * Raw deliveries of the platform's webhook. They belong to no organization until processed
 * (the numbers inside route them), so these queries take none.
 */
@Injectable()
export class MessagingWebhookEventsRepository implements OnApplicationShutdown {
  private readonly inserts = new MicroBatcher<unknown, string>(
    (payloads) => this.insertAll(payloads),
    WEBHOOK_EVENT_BATCH,
  );

  constructor(private readonly database: Database) {}

  /** Stores one delivery (batched with its neighbours); resolves with its id once committed. */
  create(payload: unknown): Promise<string> {
    return this.inserts.add(payload);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.inserts.drain();
  }

  /**
   * One statement. Each caller gets one of the new ids (PostgreSQL returns them in VALUES order,
   * and even were it not so, every stored row would still be queued exactly once).
   */
  private async insertAll(payloads: unknown[]): Promise<string[]> {
    const rows = await this.database.db
      .insert(messagingWebhookEvents)
      .values(payloads.map((payload) => ({ payload })))
      .returning({ id: messagingWebhookEvents.id });
    return rows.map((row) => row.id);
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
