import { Injectable } from '@nestjs/common';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Database } from '../../database';
import type { Integration } from '../telephony/telephony.types';
import { phoneNumbers, type PhoneNumberRow, providerAccounts } from './phones.schema';

@Injectable()
export class ProviderAccountsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The account's row, made on first sight. A calls-per-second value replaces the account's;
   * none keeps it (another number of the account may have set it).
   */
  async link(
    integration: Integration,
    accountKey: string,
    callsPerSecond: number | undefined,
  ): Promise<string> {
    const [row] = await this.database.db
      .insert(providerAccounts)
      .values({ integration, accountKey, callsPerSecond: callsPerSecond ?? null })
      .onConflictDoUpdate({
        target: [providerAccounts.integration, providerAccounts.accountKey],
        set: {
          callsPerSecond: sql`COALESCE(EXCLUDED.calls_per_second, ${providerAccounts.callsPerSecond})`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: providerAccounts.id });
    return row.id;
  }

  /** Across organizations: numbers added before accounts were kept (linked at start), by id. */
  unlinkedNumbers(afterId: string, limit: number): Promise<PhoneNumberRow[]> {
    return this.database.db
      .select()
      .from(phoneNumbers)
      .where(and(isNull(phoneNumbers.providerAccountId), gt(phoneNumbers.id, afterId)))
      .orderBy(phoneNumbers.id)
      .limit(limit);
  }

  async setAccount(phoneId: string, accountId: string): Promise<void> {
    await this.database.db
      .update(phoneNumbers)
      .set({ providerAccountId: accountId })
      .where(and(eq(phoneNumbers.id, phoneId), isNull(phoneNumbers.providerAccountId)));
  }
}
