import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { messagingIntegrations, type MessagingIntegrationRow } from './messaging.schema';

export type NewMessagingIntegration = Omit<
  typeof messagingIntegrations.$inferInsert,
  'organizationId' | 'createdAt' | 'updatedAt'
>;

export type MessagingIntegrationChanges = Partial<
  Omit<NewMessagingIntegration, 'id' | 'phoneNumberId'>
>;

/** One connected number, by the platform's phone number id, only within its organization. */
const byPhoneNumberId = (organizationId: string, phoneNumberId: string) =>
  and(
    eq(messagingIntegrations.organizationId, organizationId),
    eq(messagingIntegrations.phoneNumberId, phoneNumberId),
  );

/** Queries of messaging integrations; each one starts from the organization. */
@Injectable()
export class MessagingIntegrationsRepository {
  constructor(private readonly database: Database) {}

  async create(
    organizationId: string,
    values: NewMessagingIntegration,
  ): Promise<MessagingIntegrationRow> {
    const [row] = await this.database.db
      .insert(messagingIntegrations)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /** Oldest first: the order numbers were connected in. */
  list(organizationId: string): Promise<MessagingIntegrationRow[]> {
    return this.database.db
      .select()
      .from(messagingIntegrations)
      .where(eq(messagingIntegrations.organizationId, organizationId))
      .orderBy(asc(messagingIntegrations.createdAt), asc(messagingIntegrations.id));
  }

  async findByPhoneNumberId(
    organizationId: string,
    phoneNumberId: string,
  ): Promise<MessagingIntegrationRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingIntegrations)
      .where(byPhoneNumberId(organizationId, phoneNumberId));
    return row;
  }

  async findById(organizationId: string, id: string): Promise<MessagingIntegrationRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingIntegrations)
      .where(
        and(
          eq(messagingIntegrations.organizationId, organizationId),
          eq(messagingIntegrations.id, id),
        ),
      );
    return row;
  }

  /**
   * The one lookup without an organization: the platform's events name only the number, and
   * a number is connected to one organization at most (unique), so the number routes them.
   */
  async routeByPhoneNumberId(phoneNumberId: string): Promise<MessagingIntegrationRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingIntegrations)
      .where(eq(messagingIntegrations.phoneNumberId, phoneNumberId));
    return row;
  }

  async update(
    organizationId: string,
    id: string,
    changes: MessagingIntegrationChanges,
  ): Promise<MessagingIntegrationRow | undefined> {
    const [row] = await this.database.db
      .update(messagingIntegrations)
      .set(changes)
      .where(
        and(
          eq(messagingIntegrations.organizationId, organizationId),
          eq(messagingIntegrations.id, id),
        ),
      )
      .returning();
    return row;
  }
}
