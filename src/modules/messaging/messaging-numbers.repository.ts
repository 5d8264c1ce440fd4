import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { messagingUndeliverableNumbers } from './messaging.schema';

/** Recipients the platform reported undeliverable, per organization. */
@Injectable()
export class MessagingNumbersRepository {
  constructor(private readonly database: Database) {}

  async isUndeliverable(organizationId: string, phoneNumber: string): Promise<boolean> {
    const rows = await this.database.db
      .select({ phoneNumber: messagingUndeliverableNumbers.phoneNumber })
      .from(messagingUndeliverableNumbers)
      .where(
        and(
          eq(messagingUndeliverableNumbers.organizationId, organizationId),
          eq(messagingUndeliverableNumbers.phoneNumber, phoneNumber),
        ),
      );
    return rows.length > 0;
  }

  /** Called for a delivery status that failed with 131026; the latest report wins. */
  async markUndeliverable(
    organizationId: string,
    phoneNumber: string,
    errorCode: number,
    reportedAt: Date,
  ): Promise<void> {
    await this.database.db
      .insert(messagingUndeliverableNumbers)
      .values({ organizationId, phoneNumber, errorCode, reportedAt })
      .onConflictDoUpdate({
        target: [
          messagingUndeliverableNumbers.organizationId,
          messagingUndeliverableNumbers.phoneNumber,
        ],
        set: { errorCode, reportedAt },
      });
  }
}
