/**
 * Dialer throughput: one batch of N contacts (2,000) dialed against the Twilio fake by the
 * built worker (dist/bundle/worker.js), first by one worker process, then by two, each time
 * beside two API processes (PROCESS_ROLE=api: this process, which seeds and ends the calls,
 * and dist/bundle/main.js) on one PostgreSQL database and one Redis. Reports calls placed per
 * second (first to last placement request the fake received), calls placed twice (must be 0)
 * and contacts lost (not completed, must be 0).
 *
 * Calls end here, as the provider callbacks would end them: every placed attempt is ended
 * `completed` right after its placement (AttemptEndings), so capacity frees at once and the
 * figure is the scheduler's own pace (claims, placement, the writes around them).
 *
 *   npm run build && node -r @swc-node/register bench/dialer-throughput.ts [--contacts 2000] [--write]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '../src/config';
import { createApp } from '../src/create-app';
import { Database } from '../src/database';
import { agents } from '../src/modules/agents/agents.schema';
import { batches } from '../src/modules/batches/batches.schema';
import { callRecords, phoneLogs } from '../src/modules/call-records/call-records.schema';
import { AttemptEndings } from '../src/modules/dialer/attempt-endings';
import { AttemptsRepository } from '../src/modules/dialer/attempts.repository';
import { PhoneCredentials } from '../src/modules/phones/phone-credentials';
import { phoneNumbers } from '../src/modules/phones/phones.schema';
import { TwilioFake } from '../test/fakes';
import { loadAverages, registerAdmin, withRedis } from './lib/bench-app';
import * as h from './lib/harness';

const NUMBERS = 50;
const CALLS_PER_SECOND = 10; // per number: pacing allows 500 calls/s in all
const MAX_CONCURRENT = 200;
const TICK_MS = 200;
const ENDERS = 8;
const WORKER = join(__dirname, '..', 'dist/bundle/worker.js');

interface Result {
  workers: number;
  contacts: number;
  placed: number;
  placedTwice: number;
  lost: number;
  seconds: number;
  callsPerSecond: number;
}

function parseArgs(argv: string[]) {
  const options = { contacts: 2_000, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--contacts') options.contacts = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

async function runCase(workers: number, contacts: number, redisUrl: string): Promise<Result> {
  const twilio = await TwilioFake.start();
  const database = await h.createDatabase();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PROVIDER_TWO_API_URL: twilio.baseUrl,
    PUBLIC_BASE_URL: 'http://127.0.0.1:9',
    DIALER_MAX_CONCURRENT_CALLS: String(MAX_CONCURRENT),
    DIALER_CALLS_PER_SECOND: String(CALLS_PER_SECOND),
    DIALER_TICK_MS: String(TICK_MS),
  };
  const children: ChildProcess[] = [];
  let app: NestExpressApplication | undefined;
  try {
    app = await createApp(loadConfig({ ...env, PROCESS_ROLE: 'api' }), { logger: false });
    const port = await h.freePort();
    await app.listen(port, '127.0.0.1');
    const secondApi = await h.startServer({ ...env, PROCESS_ROLE: 'api' });
    children.push(secondApi.child);
    const batchId = await seed(app, port, twilio, contacts);
    const workerProcesses = Array.from({ length: workers }, () =>
      spawn(process.execPath, [WORKER], {
        cwd: h.ROOT,
        env: h.serverEnv({ ...env, PROCESS_ROLE: 'worker' }),
        stdio: ['ignore', 'inherit', 'inherit'],
      }),
    );
    children.push(...workerProcesses);
    await endPlacedCalls(app, batchId, contacts);
    const posts = twilio.requestsTo('POST', '/Calls.json');
    const perNumber = new Map<string, number>();
    for (const request of posts) {
      const to = String((request.body as Record<string, string>).To);
      perNumber.set(to, (perNumber.get(to) ?? 0) + 1);
    }
    const times = posts.map((request) => request.receivedAt.getTime()).sort((a, b) => a - b);
    const seconds = (times[times.length - 1] - times[0]) / 1000;
    const db = app.get(Database).db;
    const [{ lost }] = await db
      .select({ lost: sql<number>`count(*)::int` })
      .from(callRecords)
      .where(and(eq(callRecords.batchId, batchId), sql`${callRecords.status} <> 'completed'`));
    return {
      workers,
      contacts,
      placed: posts.length,
      placedTwice: [...perNumber.values()].filter((count) => count > 1).length,
      lost,
      seconds,
      callsPerSecond: (posts.length - 1) / seconds,
    };
  } finally {
    for (const child of children) await h.killChild(child);
    await app?.close();
    await twilio.close();
    await h.dropDatabases();
  }
}

/** An organization with its agent, NUMBERS Twilio numbers and one batch of `contacts`. */
async function seed(
  app: NestExpressApplication,
  port: number,
  twilio: TwilioFake,
  contacts: number,
): Promise<string> {
  const { organizationId, userId } = await registerAdmin(port);
  const db = app.get(Database).db;
  const sealer = app.get(PhoneCredentials);
  await db.insert(agents).values({ organizationId, agentName: 'Bench', isDefault: true });
  const account = twilio.addAccount();
  const ids: string[] = [];
  for (let i = 0; i < NUMBERS; i += 1) {
    const e164 = `+1415555${String(1000 + i)}`;
    const owned = twilio.addNumber(account, e164);
    const [phone] = await db
      .insert(phoneNumbers)
      .values({
        organizationId,
        userId,
        phoneNumber: e164,
        integration: 'provider_two',
        credentials: 'pending',
        providerNumberId: owned.sid,
      })
      .returning();
    const credentials = sealer.seal(organizationId, phone.id, {
      accountId: account.sid,
      secret: account.authToken,
      callbackToken: randomBytes(16).toString('hex'),
    });
    await db.update(phoneNumbers).set({ credentials }).where(eq(phoneNumbers.id, phone.id));
    ids.push(phone.id);
  }
  const [batch] = await db
    .insert(batches)
    .values({
      organizationId,
      userId,
      batchName: 'Throughput',
      callingNumbers: ids,
      enforceCalleeLocalHours: false,
      totalCalls: contacts,
    })
    .returning();
  await db.insert(callRecords).values(
    Array.from({ length: contacts }, (_, i) => ({
      organizationId,
      batchId: batch.id,
      phoneNumber: `+1212${String(2_000_000 + i)}`,
    })),
  );
  return batch.id;
}

/** Ends each placed attempt `completed` (as its final callback would) until the batch is done. */
async function endPlacedCalls(app: NestExpressApplication, batchId: string, contacts: number) {
  const database = app.get(Database);
  const attempts = app.get(AttemptsRepository);
  const endings = app.get(AttemptEndings);
  const deadline = Date.now() + 10 * 60_000;
  const endOne = (id: string) =>
    database.transaction(async () => {
      const attempt = await attempts.lock(id);
      if (!attempt) return;
      await endings.end(attempt, {
        status: 'completed',
        endedReason: 'bench',
        failureReason: 'unknown',
        endedAt: new Date(),
      });
    });
  for (;;) {
    const placed = await database.db
      .select({ id: phoneLogs.id })
      .from(phoneLogs)
      .where(
        and(
          eq(phoneLogs.batchId, batchId),
          eq(phoneLogs.callStatus, 'queued'),
          isNotNull(phoneLogs.providerCallId),
        ),
      )
      .limit(200);
    // Eight at a time: one by one, the ending (not the dialer) would set the pace.
    for (let i = 0; i < placed.length; i += ENDERS) {
      await Promise.all(placed.slice(i, i + ENDERS).map(({ id }) => endOne(id)));
    }
    const [row] = await database.db
      .select({ status: batches.queueStatus, completed: batches.callsCompleted })
      .from(batches)
      .where(eq(batches.id, batchId));
    if (row.status === 'completed' && row.completed === contacts) return;
    if (Date.now() > deadline) throw new Error(`batch not done after 10 min: ${row.completed}`);
    if (placed.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const m = await h.machine();
  const load = loadAverages();
  await withRedis(async (redisUrl) => {
    const results: Result[] = [];
    for (const workers of [1, 2]) {
      const result = await runCase(workers, options.contacts, redisUrl);
      console.log(JSON.stringify(result));
      results.push(result);
    }
    const ratio = results[1].callsPerSecond / results[0].callsPerSecond;
    const text = [
      '## Dialer throughput',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on ${h.describeMachine(m)}, with ` +
        `\`npm run build && node -r @swc-node/register bench/dialer-throughput.ts --contacts ` +
        `${options.contacts} --write\` (load average before the runs: ${load}).`,
      '',
      `One batch of ${options.contacts} contacts against the Twilio fake, ${NUMBERS} calling ` +
        `numbers at DIALER_CALLS_PER_SECOND=${CALLS_PER_SECOND} (pacing allows ` +
        `${NUMBERS * CALLS_PER_SECOND} calls/s), DIALER_MAX_CONCURRENT_CALLS=${MAX_CONCURRENT}, ` +
        `DIALER_TICK_MS=${TICK_MS}; the built worker (one, then two processes) beside two API ` +
        'processes on one PostgreSQL database and one Redis. Each placed call is ended ' +
        '`completed` at once by the benchmark (as its final callback would), so the figure is ' +
        "the scheduler's pace: claims, placement and the writes around them. Calls/s: first to " +
        'last placement request the fake received.',
      '',
      '| workers | contacts | placed | placed twice | lost | seconds | calls/s |',
      '| ------: | -------: | -----: | -----------: | ---: | ------: | ------: |',
      ...results.map(
        (r) =>
          `| ${r.workers} | ${r.contacts} | ${r.placed} | ${r.placedTwice} | ${r.lost} | ` +
          `${r.seconds.toFixed(1)} | ${r.callsPerSecond.toFixed(0)} |`,
      ),
      '',
      `Two workers / one: ${ratio.toFixed(2)}.`,
      '',
    ].join('\n');
    console.log(text);
    if (options.write) await h.writeSection('## Dialer throughput', m, text);
  });
}

h.run(main);
