import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { Database } from '../../database';
import type { Integration } from '../telephony/telephony.types';
import { phoneNumbers, type PhoneNumberRow, providerAccounts } from './phones.schema';

export type NewPhoneNumber = Omit<
  typeof phoneNumbers.$inferInsert,
  'organizationId' | 'createdAt' | 'updatedAt'
>;

@Injectable()
export class PhonesRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: NewPhoneNumber): Promise<PhoneNumberRow> {
    const [row] = await this.database.db
      .insert(phoneNumbers)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /** Across organizations: a start-up check of the server's own configuration. */
  async countWithoutPublicKey(integration: Integration): Promise<number> {
    const [row] = await this.database.db
      .select({ total: count() })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.integration, integration), isNull(phoneNumbers.publicKey)));
    return row.total;
  }

  /**
   * Across organizations: a provider callback names only the number (its URL token and
   * signature are checked against this row before anything else is read or written).
   */
  async findForCallback(id: string): Promise<PhoneNumberRow | undefined> {
    const [row] = await this.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id));
    return row;
  }

  async findById(organizationId: string, id: string): Promise<PhoneNumberRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.id, id)));
    return row;
  }

  async findByUserAndNumber(organizationId: string, userId: string, phoneNumber: string) {
    const [row] = await this.database.db
      .select({ id: phoneNumbers.id })
      .from(phoneNumbers)
      .where(
        and(
          eq(phoneNumbers.organizationId, organizationId),
          eq(phoneNumbers.userId, userId),
          eq(phoneNumbers.phoneNumber, phoneNumber),
        ),
      );
    return row;
  }

  /** The numbers, each with its account's calls per second (null: the provider's default). */
  async list(
    organizationId: string,
  ): Promise<Array<PhoneNumberRow & { accountCallsPerSecond: number | null }>> {
    const rows = await this.database.db
      .select({ number: phoneNumbers, accountCallsPerSecond: providerAccounts.callsPerSecond })
      .from(phoneNumbers)
      .leftJoin(providerAccounts, eq(providerAccounts.id, phoneNumbers.providerAccountId))
      .where(eq(phoneNumbers.organizationId, organizationId))
      .orderBy(desc(phoneNumbers.createdAt), desc(phoneNumbers.id));
    return rows.map((row) => ({ ...row.number, accountCallsPerSecond: row.accountCallsPerSecond }));
  }

  async update(organizationId: string, id: string, values: Partial<NewPhoneNumber>): Promise<void> {
    await this.database.db
      .update(phoneNumbers)
      .set(values)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.id, id)));
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.database.db
      .delete(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.id, id)))
      .returning({ id: phoneNumbers.id });
    return deleted.length > 0;
  }
}
