import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import {
  callRecords,
  type CallRecordRow,
  type PhoneLogRow,
} from '../../src/modules/call-records/call-records.schema';
import { phoneNumbers } from '../../src/modules/phones/phones.schema';
import {
  type NewPhoneLog,
  PhoneLogsRepository,
} from '../../src/modules/call-records/phone-logs.repository';
import type { TestApp } from './test-app';

/**
 * Repository-level factories for calling data (phone logs are written by the dialer, which no
 * HTTP route exposes). Each takes overrides; ids and numbers are unique per call.
 */
export class CallingFactories {
  private sequence = 0;

  constructor(private readonly t: TestApp) {}

  private get db() {
    return this.t.app.get(Database).db;
  }

  /** A phone record (credentials are a placeholder: no provider is called). */
  async phone(
    organizationId: string,
    userId: string,
    overrides: Partial<typeof phoneNumbers.$inferInsert> = {},
  ) {
    const [row] = await this.db
      .insert(phoneNumbers)
      .values({
        organizationId,
        userId,
        phoneNumber: `+1415${String(6_000_000 + (this.sequence += 1)).slice(-7)}`,
        integration: 'provider_two',
        credentials: 'v1.placeholder',
        providerNumberId: `PN${this.sequence}`,
        ...overrides,
      })
      .returning();
    return row;
  }

  async batch(
    organizationId: string,
    userId: string,
    overrides: Partial<typeof batches.$inferInsert> = {},
  ): Promise<BatchRow> {
    const [row] = await this.db
      .insert(batches)
      .values({
        organizationId,
        userId,
        batchName: `Batch ${(this.sequence += 1)}`,
        callingNumbers: [],
        ...overrides,
      })
      .returning();
    return row;
  }

  /** Adds call records to a batch and keeps its totalCalls counter in step. */
  async callRecords(
    batch: BatchRow,
    contacts: Record<string, string>[],
    overrides: Partial<typeof callRecords.$inferInsert> = {},
  ): Promise<CallRecordRow[]> {
    const rows = await this.db
      .insert(callRecords)
      .values(
        contacts.map((contact) => ({
          organizationId: batch.organizationId,
          batchId: batch.id,
          phoneNumber:
            contact.phoneNumber ?? `+1415${String(5_000_000 + (this.sequence += 1)).slice(-7)}`,
          contact: Object.fromEntries(
            Object.entries(contact).filter(([key]) => key !== 'phoneNumber'),
          ),
          ...overrides,
        })),
      )
      .returning();
    await this.db
      .update(batches)
      .set({ totalCalls: sql`${batches.totalCalls} + ${rows.length}` })
      .where(eq(batches.id, batch.id));
    return rows;
  }

  /** A batch's call records as stored: number and contact fields, in insertion order. */
  storedContacts(batchId: string) {
    return this.db
      .select({ phoneNumber: callRecords.phoneNumber, contact: callRecords.contact })
      .from(callRecords)
      .where(eq(callRecords.batchId, batchId))
      .orderBy(asc(callRecords.createdAt), asc(callRecords.id));
  }

  /** A call attempt of a record, written as the dialer writes it (status counters included). */
  phoneLog(record: CallRecordRow, overrides: Partial<NewPhoneLog> = {}): Promise<PhoneLogRow> {
    return this.t.app.get(PhoneLogsRepository).append(record.organizationId, record.id, {
      requestUuid: randomUUID(),
      callStatus: 'completed',
      callDuration: 42,
      ...overrides,
    });
  }
}
