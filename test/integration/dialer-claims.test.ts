import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { Database } from '../../src/database';
import { batchStatusCounts, callRecords } from '../../src/modules/call-records/call-records.schema';
import { CALLING_WINDOW_RULES } from '../../src/modules/dialer/calling-window';
import { phoneNumbers } from '../../src/modules/phones/phones.schema';
import { TwilioFake } from '../fakes';
import { DialerHarness, randomE164, TestClock } from '../support/dialer-harness';
import {
  startTestApp,
  TEST_ENCRYPTION_KEY,
  TEST_JWT_SECRET,
  type TestApp,
} from '../support/test-app';

/**
 * The claim's set-based writes on both drivers (PostgreSQL and the embedded PGlite speak the
 * same SQL): one tick that claims, holds, closes and withdraws records in one batch, then every
 * row it wrote, and each placed call matched to its own record's phone log.
 */
jest.setTimeout(120_000);

const ENV = {
  // The app does not listen (supertest): the fake's callbacks go to a closed port.
  PUBLIC_BASE_URL: 'http://127.0.0.1:9',
  DIALER_TICK_MS: '0',
  DIALER_MAX_CONCURRENT_CALLS: '20',
  DIALER_CALLS_PER_SECOND: '10',
};

async function startPglite(env: Record<string, string>): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-dialer-claims-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...env,
  });
  const app = await createApp(config, { logger: false });
  await app.init();
  const drop = () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true }));
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    database: { url: dataDir, name: 'pglite', drop },
    async close() {
      await app.close();
      await drop();
    },
  };
}

describe.each([
  ['PostgreSQL', (env: Record<string, string>) => startTestApp({ env })],
  ['PGlite', startPglite],
])('dialer claim writes on %s', (_driver, start) => {
  let t: TestApp;
  let twilio: TwilioFake;
  // Monday 15:00Z: 10:00 in New York, 07:00 in San Francisco (before callee hours there).
  const clock = new TestClock();

  beforeAll(async () => {
    twilio = await TwilioFake.start();
    t = await start({ ...ENV, PROVIDER_TWO_API_URL: twilio.baseUrl });
    clock.install(t);
  });

  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  it('claims, holds, closes and withdraws in one tick, each phone log on its own record', async () => {
    const h = await new DialerHarness(t, twilio).organization();
    const phones = [await h.number(), await h.number()];
    const { batch } = await h.batch(0, {
      callingNumbers: phones.map((phone) => phone.id),
      enforceCalleeLocalHours: true,
    });
    const newYork = Array.from({ length: 4 }, () => randomE164('+1212'));
    const [listed, retried] = [randomE164('+1212'), randomE164('+1212')];
    const sanFrancisco = [randomE164('+1415'), randomE164('+1415')];
    const contacts = [...newYork, listed, retried, ...sanFrancisco];
    const records = await h.calling.callRecords(
      batch,
      contacts.map((phoneNumber) => ({ phoneNumber })),
    );
    // One record was tried before and waits for its retry (busy).
    const retry = records.find((record) => record.phoneNumber === retried)!;
    await h.calling.phoneLog(retry, { callStatus: 'busy' });
    const db = t.app.get(Database).db;
    await db.update(callRecords).set({ attempts: 1 }).where(eq(callRecords.id, retry.id));
    await h.addDnc(listed);
    const closed = await h.batch(2, { allowedDays: [] });

    const now = clock.current.getTime();
    expect(await h.tick()).toMatchObject({ claimed: 5, placed: 5 });

    const byNumber = new Map((await h.records(batch.id)).map((r) => [r.phoneNumber, r]));
    for (const number of [...newYork, retried]) {
      expect(byNumber.get(number)).toMatchObject({
        status: 'in_progress',
        attempts: number === retried ? 2 : 1,
        nextAttemptAt: null,
        lastCallStatus: 'queued',
      });
    }
    expect(byNumber.get(listed)).toMatchObject({ status: 'do_not_call', attempts: 0 });
    for (const number of sanFrancisco) {
      // Held until 08:00 there, the callee hours' start.
      expect(byNumber.get(number)).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date('2026-03-02T16:00:00Z'),
      });
    }
    for (const record of await h.records(closed.batch.id)) {
      expect(record).toMatchObject({ status: 'failed', attempts: 0, nextAttemptAt: null });
    }

    const logs = (await h.logs(batch.id)).filter((log) => log.callStatus !== 'busy');
    expect(logs).toHaveLength(5);
    const recordOf = new Map(records.map((record) => [record.id, record]));
    for (const log of logs) {
      const record = recordOf.get(log.callRecordId)!;
      const phone = phones.find((p) => p.id === log.phoneId)!;
      expect(log).toMatchObject({
        attempt: record.phoneNumber === retried ? 2 : 1,
        fromNumber: phone.phoneNumber,
      });
      expect(log.permit).toMatchObject({
        rules: CALLING_WINDOW_RULES,
        at: new Date(now).toISOString(),
        callee: { enforced: true },
      });
      // The call placed for this phone log (its id in the callback URL) went to its own record.
      const call = twilio.calls.find(
        (c) => new URL(c.statusCallback!).searchParams.get('call') === log.id,
      );
      expect(call).toMatchObject({
        sid: log.providerCallId,
        to: record.phoneNumber,
        from: phone.phoneNumber,
      });
    }

    // Five slots at 10 calls/s over two numbers: the first has t, t+100, t+200; the second t, t+100.
    const paced = await db
      .select({ nextDialAt: phoneNumbers.nextDialAt })
      .from(phoneNumbers)
      .where(
        inArray(
          phoneNumbers.id,
          phones.map((phone) => phone.id),
        ),
      );
    expect(paced.map((p) => p.nextDialAt!.getTime() - now).sort()).toEqual([200, 300]);

    const counts = await db
      .select({ status: batchStatusCounts.callStatus, count: batchStatusCounts.count })
      .from(batchStatusCounts)
      .where(eq(batchStatusCounts.batchId, batch.id));
    expect(Object.fromEntries(counts.map((c) => [c.status, c.count]))).toMatchObject({
      queued: 5,
      busy: 0,
    });
  });
});
