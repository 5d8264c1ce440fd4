import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import { agents } from '../../src/modules/agents/agents.schema';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import {
  callRecords,
  type CallStatus,
  phoneLogs,
  type PhoneLogRow,
} from '../../src/modules/call-records/call-records.schema';
import { AttemptEndings } from '../../src/modules/dialer/attempt-endings';
import { AttemptsRepository } from '../../src/modules/dialer/attempts.repository';
import { DialerScheduler, type TickReport } from '../../src/modules/dialer/dialer-scheduler';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { events } from '../../src/modules/events/events.schema';
import { PhoneCredentials } from '../../src/modules/phones/phone-credentials';
import { phoneNumbers } from '../../src/modules/phones/phones.schema';
import { accountKeyOf } from '../../src/modules/phones/provider-accounts';
import { ProviderAccountsRepository } from '../../src/modules/phones/provider-accounts.repository';
import type { Integration, ProviderCredentials } from '../../src/modules/telephony/telephony.types';
import type { PlivoAccount, PlivoFake, TwilioAccount, TwilioFake } from '../fakes';
import { CallingFactories } from './calling-factories';
import { registerOrganization, type RegisteredAdmin } from './factories';
import type { TestApp } from './test-app';

/**
 * A random valid number under a prefix (+1 NPA), unique enough for one test file: its exchange
 * starts with 2-9 as NANP requires (an import that validates numbers refuses 0 and 1).
 */
export const randomE164 = (prefix: string): string => {
  const random = randomBytes(3).readUIntBE(0, 3);
  return `${prefix}${2 + (random % 8)}${String(Math.floor(random / 8) % 1_000_000).padStart(6, '0')}`;
};

/** Time as the app sees it, moved by the test (never slept through). */
export class TestClock {
  current = new Date('2026-03-02T15:00:00Z');

  install(t: TestApp): void {
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(this.current));
  }

  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** One organization dialing through Twilio numbers of the fake, with its default agent. */
export class DialerHarness {
  readonly calling: CallingFactories;
  admin!: RegisteredAdmin;
  account!: TwilioAccount;

  constructor(
    readonly t: TestApp,
    readonly twilio: TwilioFake,
  ) {
    this.calling = new CallingFactories(t);
  }

  private get db() {
    return this.t.app.get(Database).db;
  }

  async organization({ agent = true } = {}): Promise<this> {
    this.admin = await registerOrganization(this.t.http);
    this.account = this.twilio.addAccount();
    if (agent) {
      await this.db.insert(agents).values({
        organizationId: this.admin.organizationId,
        agentName: 'Ava',
        maxCallSeconds: 300,
        isDefault: true,
      });
    }
    return this;
  }

  /** A Twilio number owned on the fake, stored with real sealed credentials. */
  async number(status: 'active' | 'inactive' = 'active') {
    const e164 = randomE164('+1415');
    const owned = this.twilio.addNumber(this.account, e164);
    return this.storedNumber({
      e164,
      integration: 'provider_two',
      credentials: { accountId: this.account.sid, secret: this.account.authToken },
      providerNumberId: owned.sid,
      status,
    });
  }

  /**
   * A Twilio number linked to its provider account as add-phone links it: its calls spend the
   * account's calls-per-second budget (`callsPerSecond` replaces the account's when given).
   */
  async accountNumber(callsPerSecond?: number) {
    const phone = await this.number();
    const credentials = { accountId: this.account.sid, secret: this.account.authToken };
    const accounts = this.t.app.get(ProviderAccountsRepository);
    const key = accountKeyOf('provider_two', credentials, null);
    await accounts.setAccount(phone.id, await accounts.link('provider_two', key, callsPerSecond));
    return phone;
  }

  /** A Plivo number owned on the fake (in `account`, else a new one), stored like any other. */
  plivoNumber(plivo: PlivoFake, account: PlivoAccount = plivo.addAccount()) {
    const e164 = randomE164('+1415');
    plivo.addNumber(account, e164);
    return this.storedNumber({
      e164,
      integration: 'provider_one',
      credentials: { accountId: account.authId, secret: account.authToken },
      providerNumberId: e164.slice(1),
    });
  }

  /** A number of any provider, its credentials sealed as add-phone seals them. */
  async storedNumber(input: {
    e164: string;
    integration: Integration;
    credentials: ProviderCredentials;
    providerNumberId: string;
    providerAppId?: string;
    status?: 'active' | 'inactive';
  }) {
    const phone = await this.calling.phone(this.admin.organizationId, this.admin.userId, {
      phoneNumber: input.e164,
      integration: input.integration,
      providerNumberId: input.providerNumberId,
      providerAppId: input.providerAppId ?? null,
      status: input.status ?? 'active',
    });
    const credentials = this.t.app.get(PhoneCredentials).seal(this.admin.organizationId, phone.id, {
      ...input.credentials,
      callbackToken: randomBytes(16).toString('hex'),
    });
    const [sealed] = await this.db
      .update(phoneNumbers)
      .set({ credentials })
      .where(eq(phoneNumbers.id, phone.id))
      .returning();
    return sealed;
  }

  /** A batch dialing `contacts` numbers (callee-local hours off: the window rules are not ours). */
  async batch(
    contacts: number,
    overrides: Partial<typeof batches.$inferInsert> = {},
  ): Promise<{ batch: BatchRow; numbers: string[] }> {
    const callingNumbers = overrides.callingNumbers ?? [(await this.number()).id];
    const batch = await this.calling.batch(this.admin.organizationId, this.admin.userId, {
      enforceCalleeLocalHours: false,
      ...overrides,
      callingNumbers,
    });
    const numbers = Array.from({ length: contacts }, () => randomE164('+1212'));
    const unique = [...new Set(numbers)];
    if (unique.length > 0) {
      await this.calling.callRecords(
        batch,
        unique.map((phoneNumber) => ({ phoneNumber, name: 'Sam' })),
      );
    }
    return { batch, numbers: unique };
  }

  tick(): Promise<TickReport> {
    return this.t.app.get(DialerScheduler).tick();
  }

  logs(batchId: string): Promise<PhoneLogRow[]> {
    return this.db
      .select()
      .from(phoneLogs)
      .where(eq(phoneLogs.batchId, batchId))
      .orderBy(asc(phoneLogs.createdAt), asc(phoneLogs.id));
  }

  live(batchId: string): Promise<PhoneLogRow[]> {
    return this.logs(batchId).then((logs) =>
      logs.filter((log) => ['queued', 'ringing', 'in-progress'].includes(log.callStatus)),
    );
  }

  records(batchId: string) {
    return this.db
      .select()
      .from(callRecords)
      .where(eq(callRecords.batchId, batchId))
      .orderBy(asc(callRecords.phoneNumber));
  }

  async batchRow(batchId: string): Promise<BatchRow> {
    const [row] = await this.db.select().from(batches).where(eq(batches.id, batchId));
    return row;
  }

  async addDnc(phoneNumber: string): Promise<void> {
    await this.db
      .insert(dncEntries)
      .values({ organizationId: this.admin.organizationId, phoneNumber });
  }

  /** Twilio calls the fake received for these destination numbers. */
  callsTo(numbers: string[]) {
    return this.twilio.calls.filter((call) => numbers.includes(call.to));
  }

  /**
   * Ends an attempt as a final callback would (the callback routes are another part's): the
   * phone log, the record's retry-or-done and the event, in one transaction.
   */
  async end(logId: string, status: Exclude<CallStatus, 'queued' | 'ringing' | 'in-progress'>) {
    const database = this.t.app.get(Database);
    await database.transaction(async () => {
      const attempt = await this.t.app.get(AttemptsRepository).lock(logId);
      if (!attempt) throw new Error(`no attempt ${logId}`);
      await this.t.app.get(AttemptEndings).end(attempt, {
        status,
        endedReason: 'test',
        failureReason: status === 'busy' ? 'busy' : 'unknown',
        endedAt: this.t.app.get(Clock).now(),
      });
    });
  }

  /** Ends every live attempt of the batch with `status`. */
  async endAll(batchId: string, status: Parameters<DialerHarness['end']>[1]): Promise<number> {
    const live = await this.live(batchId);
    for (const log of live) await this.end(log.id, status);
    return live.length;
  }

  /** The call events raised for this batch's attempts: [type, call_id] in commit order. */
  async eventsOf(batchId: string): Promise<Array<{ type: string; callId: string | null }>> {
    const ids = (await this.logs(batchId)).map((log) => log.id);
    if (ids.length === 0) return [];
    return this.db
      .select({ type: events.type, callId: events.callId })
      .from(events)
      .where(inArray(events.callId, ids))
      .orderBy(asc(events.callId), asc(events.sequence));
  }

  async pendingOf(batchId: string) {
    return this.db
      .select()
      .from(callRecords)
      .where(and(eq(callRecords.batchId, batchId), eq(callRecords.status, 'pending')));
  }
}
