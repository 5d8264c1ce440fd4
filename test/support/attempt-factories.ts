import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { agents } from '../../src/modules/agents/agents.schema';
import {
  type CallRecordRow,
  callRecords,
  type PhoneLogRow,
} from '../../src/modules/call-records/call-records.schema';
import {
  type NewPhoneLog,
  PhoneLogsRepository,
} from '../../src/modules/call-records/phone-logs.repository';
import type { TestApp } from './test-app';

/**
 * Voice agents and claimed attempts written the way the dialer's claim writes them (the
 * scheduler has no route; tests of the callback side start from a claimed attempt).
 */
export class AttemptFactories {
  private sequence = 0;

  constructor(private readonly t: TestApp) {}

  async agent(organizationId: string, overrides: Partial<typeof agents.$inferInsert> = {}) {
    const [row] = await this.t.app
      .get(Database)
      .db.insert(agents)
      .values({
        organizationId,
        agentName: `Agent ${(this.sequence += 1)}`,
        greeting: 'Hello, this is Ada from Acme.',
        voicemailMessage: 'Sorry we missed you. Please call Acme back.',
        ...overrides,
      })
      .returning();
    return row;
  }

  /**
   * A record the claim took (in_progress, one more attempt) and its `queued` phone log with
   * agent, calling number, attempt number, phone and a placement lease.
   */
  async claimed(
    record: CallRecordRow,
    phone: { id: string; phoneNumber: string },
    overrides: Partial<NewPhoneLog> = {},
  ): Promise<PhoneLogRow> {
    const database = this.t.app.get(Database);
    return database.transaction(async () => {
      const attempt = record.attempts + 1;
      await database.db
        .update(callRecords)
        .set({ status: 'in_progress', attempts: attempt, nextAttemptAt: null })
        .where(eq(callRecords.id, record.id));
      return this.t.app.get(PhoneLogsRepository).append(record.organizationId, record.id, {
        requestUuid: randomUUID(),
        callStatus: 'queued',
        attempt,
        fromNumber: phone.phoneNumber,
        phoneId: phone.id,
        leaseExpiresAt: new Date(Date.now() + 60_000),
        ...overrides,
      });
    });
  }
}
