import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { CallingFactories } from '../support/calling-factories';
import { cliEnv, runCli } from '../support/cli';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

// The operator CLI as a shell script runs it: a child process on the test database (and Redis
// prefix), asserting exit codes, stdout/stderr and what changed in the database. Each run
// boots the app (about a second of CPU from the bundle), so tests group several checks per run
// and run independent commands side by side.
jest.setTimeout(300_000);

const CSV = [
  'phoneNumber,firstName',
  '+14155550101,Ada',
  'not a number,Bob',
  '+14155550102,Cy',
  '+14155550101,Ada again',
].join('\n');

describe.each([
  { queue: 'in-process queue', redis: false },
  { queue: 'BullMQ', redis: true },
])('operator CLI ($queue)', ({ redis }) => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let factories: CallingFactories;
  let receiver: WebhookReceiver;
  let dir: string;
  const env = () => cliEnv(t, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const db = () => t.app.get(Database).db;
  const batchRow = async (id: string) =>
    (await db().select().from(batches).where(eq(batches.id, id)))[0];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({ redis, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    admin = await registerOrganization(t.http);
    factories = new CallingFactories(t);
    dir = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a CSV into a batch with progress lines and lists rejected rows', async () => {
    const batch = await factories.batch(admin.organizationId, admin.userId);
    const file = join(dir, `contacts-${batch.id}.csv`);
    writeFileSync(file, CSV);

    const run = await runCli(['contacts:import', batch.id, file], env());

    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain('Imported 2 of 4 rows; 2 rejected');
    expect(run.stdout).toContain('row 2: invalid_number');
    expect(run.stdout).toContain('row 4: duplicate_in_batch');
    // stderr is not a terminal here: plain progress lines, ending at 100%.
    expect(run.stderr).toMatch(/^importing: 100% /m);
    expect((await batchRow(batch.id)).totalCalls).toBe(2);
    expect((await factories.storedContacts(batch.id)).map((row) => row.phoneNumber)).toEqual([
      '+14155550101',
      '+14155550102',
    ]);
    if (redis) return; // the export reads the database alone: once is enough

    const out = join(dir, `export-${batch.id}.csv`);
    const exported = await runCli(['batch:export', batch.id, out, '--json'], env());
    expect(exported.code).toBe(0);
    const viaApi = await t.http
      .get(`/api/call/export/csv?batchId=${batch.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(readFileSync(out, 'utf8')).toBe(viaApi.text);
    expect(JSON.parse(exported.stdout)).toEqual({
      batchId: batch.id,
      file: out,
      bytes: Buffer.byteLength(viaApi.text),
    });
  });

  it('replays failed webhook deliveries: the receiver gets them again, trigger recover', async () => {
    const webhook = await createWebhook(t, admin, {
      url: receiver.url(`/replay-${redis ? 'bullmq' : 'in-process'}`),
    });
    const event = await raiseCallEvent(t.app, admin.organizationId);
    const delivery = () =>
      db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, event.id))
        .then((rows) => rows[0]);
    await waitFor(async () => (await delivery())?.status === 'succeeded', {
      timeoutMs: 20_000,
      what: 'the first delivery',
    });
    // As if every attempt had failed (the receiver was down): the state replay looks for.
    await db()
      .update(webhookDeliveries)
      .set({ status: 'failed', lastAttemptAt: new Date() })
      .where(eq(webhookDeliveries.eventId, event.id));
    const before = receiver.received.length;

    const since = new Date(Date.now() - 60_000).toISOString();
    const run = await runCli(
      ['webhooks:replay', '--since', since, '--webhook', webhook.id, '--json'],
      env(),
    );

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      webhooks: [
        { organizationId: admin.organizationId, webhookId: webhook.id, due: 1, queued: 1 },
      ],
      due: 1,
      queued: 1,
    });
    // In-process: the CLI sent it before exiting; BullMQ: the app's worker took the job.
    await waitFor(async () => (await delivery())?.status === 'succeeded', {
      timeoutMs: 20_000,
      what: 'the replayed delivery',
    });
    expect(receiver.received.length).toBe(before + 1);
    const [latest] = await db()
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.deliveryId, (await delivery()).id))
      .orderBy(desc(webhookDeliveryAttempts.attemptNo))
      .limit(1);
    expect(latest.trigger).toBe('recover');
  });
});

describe('operator CLI: accounts, keys, batch status and exit codes', () => {
  let t: TestApp;
  let factories: CallingFactories;
  const env = () => cliEnv(t);

  beforeAll(async () => {
    t = await startTestApp();
    factories = new CallingFactories(t);
  });
  afterAll(() => t.close());

  it('answers usage errors with exit 2 before opening anything', async () => {
    const [unknown, badId] = await Promise.all([
      runCli(['batch:explode'], {}),
      runCli(['batch:pause', 'not-an-id', '--json'], {}),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'batch:explode'");
    expect(badId).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(badId.stderr)).toEqual({
      error: 'batchId must be an id of 24 hexadecimal digits',
      exitCode: 2,
    });
  });

  it('creates an organization admin who can sign in, and refuses a taken e-mail (exit 1)', async () => {
    const email = `cli-admin-${process.pid}@example.com`;
    const password = 'a long operator password';
    const args = ['admin:create', '--organization', 'Acme', '--name', 'Ada', '--email', email];

    const run = await runCli([...args, '--password-stdin', '--json'], env(), {
      input: `${password}\n`,
    });

    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout) as { organizationId: string; user: { role: string } };
    expect(created.user.role).toBe('admin');
    expect(created).not.toHaveProperty('password');
    const login = await t.http.post('/api/auth/login').send({ email, password }).expect(200);
    expect(login.body.data.user.organizationId).toBe(created.organizationId);

    const again = await runCli(args, env());
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toBe('error: A user with this e-mail already exists\n');
  });

  it('issues an API key that authenticates, and revokes it', async () => {
    const admin = await registerOrganization(t.http);
    // The server's metrics listener holds METRICS_PORT: a command must not try to bind it too.
    const metricsListener = createServer();
    await new Promise<void>((listening) => metricsListener.listen(0, '127.0.0.1', listening));
    const metricsPort = String((metricsListener.address() as AddressInfo).port);

    const issued = await runCli(
      ['api-key:issue', '--email', admin.email, '--name', 'CRM', '--json'],
      cliEnv(t, { METRICS_PORT: metricsPort }),
    ).finally(() => metricsListener.close());

    expect(issued).toMatchObject({ code: 0, stderr: '' });
    const { key, _id: id } = JSON.parse(issued.stdout) as { key: string; _id: string };
    const me = await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
    expect(me.body.data._id).toBe(admin.userId);

    const revoked = await runCli(['api-key:revoke', id], env());
    expect(revoked).toMatchObject({ code: 0, stdout: `API key ${id} revoked\n` });
    await t.http.get('/api/auth/me').set('x-api-key', key).expect(401);
  });

  it('pauses, resumes and cancels a batch by the API rules; a refused change exits 1', async () => {
    const admin = await registerOrganization(t.http);
    const phone = await factories.phone(admin.organizationId, admin.userId);
    const batch = await factories.batch(admin.organizationId, admin.userId, {
      callingNumbers: [phone.id],
    });
    const status = async () => {
      const [row] = await t.app
        .get(Database)
        .db.select()
        .from(batches)
        .where(eq(batches.id, batch.id));
      return { queueStatus: row.queueStatus, statusReason: row.statusReason };
    };

    // Another batch's id: independent of the changes below, so it runs beside them.
    const missing = runCli(['batch:cancel', '0123456789abcdef01234567'], env());
    const paused = await runCli(['batch:pause', batch.id, '--json'], env());
    expect(paused.code).toBe(0);
    expect(JSON.parse(paused.stdout)).toMatchObject({ _id: batch.id, queue_status: 'paused' });
    expect(await status()).toEqual({ queueStatus: 'paused', statusReason: null });

    const twice = await runCli(['batch:pause', batch.id], env());
    expect(twice).toMatchObject({ code: 1, stderr: 'error: A paused batch cannot be paused\n' });

    const resumed = await runCli(['batch:resume', batch.id], env());
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(': active');
    expect(await status()).toEqual({ queueStatus: 'active', statusReason: null });

    const cancelled = await runCli(['batch:cancel', batch.id], env());
    expect(cancelled.code).toBe(0);
    expect(await status()).toEqual({ queueStatus: 'completed', statusReason: 'cancelled' });

    expect(await missing).toMatchObject({ code: 1, stderr: 'error: Batch not found\n' });
  });
});
