import { Injectable } from '@nestjs/common';
import { and, eq, inArray } from 'drizzle-orm';
import { Database } from '../../../database';
import {
  messagingEarlyStatuses,
  type MessagingEarlyStatusRow,
} from './messaging-conversations.schema';

export type NewEarlyStatus = Omit<
  typeof messagingEarlyStatuses.$inferInsert,
  'id' | 'organizationId' | 'receivedAt'
>;

/** Statuses that arrived before our record of the send (see messagingEarlyStatuses). */
@Injectable()
export class MessagingEarlyStatusesRepository {
  constructor(private readonly database: Database) {}

  /** Keeps one of each status per wamid (a redelivery adds nothing). */
  async add(organizationId: string, values: NewEarlyStatus): Promise<void> {
    await this.database.db
      .insert(messagingEarlyStatuses)
      .values({ ...values, organizationId })
      .onConflictDoNothing();
  }

  forMessage(
    organizationId: string,
    integrationId: string,
    platformMessageId: string,
  ): Promise<MessagingEarlyStatusRow[]> {
    return this.database.db
      .select()
      .from(messagingEarlyStatuses)
      .where(
        and(
          eq(messagingEarlyStatuses.organizationId, organizationId),
          eq(messagingEarlyStatuses.integrationId, integrationId),
          eq(messagingEarlyStatuses.platformMessageId, platformMessageId),
        ),
      );
  }

  async remove(organizationId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db
      .delete(messagingEarlyStatuses)
      .where(
        and(
          eq(messagingEarlyStatuses.organizationId, organizationId),
          inArray(messagingEarlyStatuses.id, ids),
        ),
      );
  }
}
