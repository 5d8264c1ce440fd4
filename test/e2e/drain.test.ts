import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { withTimeout } from '../../src/common/with-timeout';
import { DRAIN_WIND_UP_SECONDS } from '../../src/lifecycle/process-drain';
import { ULAW_SILENCE } from '../../src/modules/voice/audio/paced-stream';
import { FRAME_BYTES } from '../../src/modules/voice/media/media-stream';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import { DRAINING } from '../../src/modules/voice/session/conversation-phrases';
import { ChatFake } from '../fakes/chat.fake';
import { sandboxChatReply } from '../fakes/sandbox-chat';
import type { AnsweredCall } from '../fakes/http-fake';
import { MediaStreamCaller } from '../fakes/media-stream-caller';
import { TwilioFake } from '../fakes/twilio.fake';
import { registerOrganization } from '../support/factories';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { deleteRedisKeys, REDIS_TEST_URL } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// The built server (`node dist/bundle/main.js`, on PostgreSQL and Redis) SIGTERMed with live
// calls (#28, "Drain instead of cut"): none is cut before DRAIN_GRACE_SECONDS, then each hears the
// closing line and is hung up at the provider, the process exits 0 within its bound, and once it
// is started again on the same data the drained contacts are called again.

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/bundle/main.js');
const GRACE_SECONDS = 6;
const GRACE_MS = GRACE_SECONDS * 1_000;
// What the process allows itself before it exits 1 (main.ts: grace + wind-up; shutdown.ts: 30 s).
const EXIT_BOUND_MS = (GRACE_SECONDS + DRAIN_WIND_UP_SECONDS + 30) * 1_000;
// Starting a bundle takes seconds on a busy 2-core box.
const START_TIMEOUT_MS = 60_000;
jest.setTimeout(START_TIMEOUT_MS * 2 + EXIT_BOUND_MS * 2);

const CALLING_NUMBER = '+14155550142';
/** Stay on the line, silent, until the service ends the call. */
const STAYING = ['+12125550171', '+12125550172', '+12125550173'];
/** Hangs up by itself during the grace period. */
const LEAVING = '+12125550174';
const SILENCE = Buffer.alloc(FRAME_BYTES, ULAW_SILENCE);
/** From a hang-up (by either side) to the provider's final status callback. */
const PROVIDER_END_MS = 1_000;

interface Server {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  http: TestAgent;
  output(): string;
}

/** One answered call, as the callee's side of its media stream saw it. */
interface Callee {
  sid: string;
  caller: MediaStreamCaller;
  /** performance.now() when the stream closed (whoever closed it). */
  closedAt?: number;
  /** The callee hangs up: the provider ends the stream (`stop`) and the call. */
  hangUp(): void;
}

describe('SIGTERM with live calls (the built server)', () => {
  const prefix = `sbtest-${randomBytes(4).toString('hex')}`;
  const servers: Server[] = [];
  const callees = new Map<string, Callee>();
  let database: TestDatabase;
  let twilio: TwilioFake;
  let chat: ChatFake;
  let env: NodeJS.ProcessEnv;
  let passed = false;

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first`);
    [database, twilio, chat] = await Promise.all([
      createTestDatabase({ synchronousCommit: false }),
      TwilioFake.start(),
      ChatFake.start(),
    ]);
    const port = await freePort();
    env = {
      // Nothing from the caller's shell (NODE_OPTIONS, LLM_API_URL...) leaks in.
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      JWT_SECRET: 'drain-test-secret-that-is-long-enough-0123456789',
      ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      // A model to converse with (never asked: the callees are silent), so a call outlives its
      // greeting; the offline speech engines (eSpeak NG) speak.
      LLM_API_URL: chat.url,
      LLM_API_KEY: 'drain-test-key',
      DRAIN_GRACE_SECONDS: String(GRACE_SECONDS),
      // Every contact at once, so that the calls are live together.
      DIALER_CALLS_PER_SECOND: '20',
      LOG_LEVEL: 'info',
    };
  });

  afterAll(async () => {
    // What the servers said, for a failure in CI (the route table left out).
    if (!passed)
      for (const server of servers)
        console.log(
          server
            .output()
            .split('\n')
            .filter(
              (line) => !/"context":"_?(RoutesResolver|RouterExplorer|InstanceLoader)/.test(line),
            )
            .join('\n'),
        );
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    for (const callee of callees.values()) callee.caller.close();
    if (twilio) twilio.autoProgress = undefined;
    await Promise.all([twilio?.close(), chat?.stop()]);
    await database?.drop();
    await deleteRedisKeys(REDIS_TEST_URL, prefix);
  });

  async function start(): Promise<Server> {
    const child = spawn(process.execPath, [ENTRY], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle) =>
      child.once('exit', (code, signal) => settle({ code, signal })),
    );
    const server: Server = {
      child,
      exited,
      http: request(env.PUBLIC_BASE_URL!),
      output: () => output,
    };
    servers.push(server);
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
        return (await server.http.get('/health/ready').catch(() => undefined))?.status === 200;
      },
      { timeoutMs: START_TIMEOUT_MS, intervalMs: 200, what: 'the server to be ready' },
    );
    return server;
  }

  /**
   * The callee of an auto-progressed call: streams silence like a phone line from the answer on,
   * until the service hangs up (or closes the stream) or the callee hangs up itself.
   */
  async function pickUp(call: AnsweredCall): Promise<void> {
    const { url, token } = await call.stream();
    const caller = await MediaStreamCaller.connect(call.integration, url);
    let hangUp = () => {};
    const hungUp = new Promise<void>((settle) => (hangUp = settle));
    const callee: Callee = { sid: call.callId, caller, hangUp };
    callees.set(twilio.call(call.callId).to, callee);
    void caller.closed.then(() => (callee.closedAt = performance.now()));
    caller.start(call.callId, token);
    caller.sendAudio(SILENCE);
    const byCallee = hungUp.then(() => 'callee' as const);
    const byService = waitFor(() => call.hangupRequested() || callee.closedAt !== undefined, {
      timeoutMs: 120_000,
      intervalMs: 20,
      what: 'the call to end',
    }).then(
      () => 'service' as const,
      () => 'service' as const,
    );
    if ((await Promise.race([byCallee, byService])) === 'callee')
      caller.send({
        event: 'stop',
        sequenceNumber: '9999',
        streamSid: caller.streamId,
        stop: { accountSid: 'AC0000', callSid: call.callId },
      });
    caller.close();
    // Then the fake ends the call: its `completed` status callback, a moment later as a
    // provider's comes, not before the service can go on.
    await new Promise((settle) => setTimeout(settle, PROVIDER_END_MS));
  }

  it('lets live calls go on for the grace period, then ends them politely, exits 0 and calls them again after the restart', async () => {
    let round = 1;
    twilio.autoProgress = () => (round === 1 ? 'completed' : 'no-answer');
    chat.respond = sandboxChatReply;
    twilio.conversation = (call) => pickUp(call);
    const account = twilio.addAccount();
    twilio.addNumber(account, CALLING_NUMBER);

    const first = await start();
    const admin = await registerOrganization(first.http);
    const auth = { Authorization: `Bearer ${admin.token}` };
    const phone = await first.http
      .post('/api/call/add-phone')
      .set(auth)
      .send({
        userId: admin.userId,
        phoneNumber: CALLING_NUMBER,
        integration: 'provider_two',
        accSId: account.sid,
        authToken: account.authToken,
        // The calls start together, as DIALER_CALLS_PER_SECOND allows: at Twilio's default of
        // one call a second for the account, the first callee's silence would end its call by
        // itself (the agent's goodbye to a silent line) around the time the grace ends.
        accountCallsPerSecond: 20,
      })
      .expect(201);
    const agent = await first.http
      .post('/api/agents')
      .set(auth)
      .send({ agent_name: 'Ada', prompt: 'You are Ada.', greeting: 'Hello, this is Ada.' })
      .expect(201);
    const batch = await first.http
      .post('/api/call/createBatch')
      .set(auth)
      .send({
        batchName: 'Drained',
        callingNumbers: [phone.body.data._id],
        agentId: agent.body.data._id,
        retry: 0,
        delay: 0,
        enforceCalleeLocalHours: false,
        contacts: [...STAYING, LEAVING].map((phoneNumber, i) => ({
          phoneNumber,
          name: `Contact ${i + 1}`,
        })),
      })
      .expect(201);
    const batchId = batch.body.data as string;

    // Every call live: its greeting heard to the end.
    await waitFor(
      () =>
        [...STAYING, LEAVING].every((to) =>
          callees.get(to)?.caller.marks.some((mark) => mark.name === GREETING_MARK),
        ),
      { timeoutMs: 30_000, intervalMs: 50, what: 'every callee to hear its greeting' },
    );

    const signalledAt = performance.now();
    const signalledAtDate = Date.now();
    first.child.kill('SIGTERM');
    const graceEnds = signalledAt + GRACE_MS;

    // Out of rotation at once.
    await waitFor(
      async () => (await first.http.get('/health/ready').catch(() => undefined))?.status === 503,
      { timeoutMs: 2_000, intervalMs: 20, what: '/health/ready to answer 503' },
    );
    expect(performance.now()).toBeLessThan(graceEnds);

    // A callee hangs up by itself during the grace: its call ends as any call does.
    const leaving = callees.get(LEAVING)!;
    leaving.hangUp();
    await waitFor(() => leaving.closedAt, { what: 'the leaving callee to hang up' });
    expect(leaving.closedAt!).toBeLessThan(graceEnds);
    const leavingCompleted = await waitFor(
      () =>
        twilio.deliveries.find(
          (delivery) => delivery.callId === leaving.sid && delivery.event === 'completed',
        ),
      { timeoutMs: 5_000, intervalMs: 20, what: "the leaving call's completed callback" },
    );
    expect(leavingCompleted.status).toBe(200);

    // The others are hung up at the provider after the grace, and only then.
    const staying = STAYING.map((to) => callees.get(to)!);
    await waitFor(() => staying.every((callee) => twilio.call(callee.sid).hangupRequested), {
      timeoutMs: GRACE_MS + DRAIN_WIND_UP_SECONDS * 1_000,
      intervalMs: 50,
      what: 'every staying call to be hung up',
    });
    for (const callee of staying) {
      const hangUps = twilio.requestsTo('POST', `/Calls/${callee.sid}.json`);
      expect(hangUps).toHaveLength(1);
      const hungUpAt = signalledAt + (hangUps[0].receivedAt.getTime() - signalledAtDate);
      expect(hungUpAt).toBeGreaterThanOrEqual(graceEnds);
      // Its stream stayed open through the grace; between the grace and the hang-up the callee
      // heard at least a second of the closing line (20 ms frames), to its end (the mark back).
      await waitFor(() => callee.closedAt, { what: 'the stream to close after the hang-up' });
      expect(callee.closedAt!).toBeGreaterThanOrEqual(graceEnds);
      const closing = callee.caller.frames.filter(
        (frame) => frame.at >= graceEnds && frame.at <= hungUpAt,
      );
      expect(closing.length).toBeGreaterThanOrEqual(50);
      expect(callee.caller.marks.some((mark) => mark.at >= graceEnds && mark.at <= hungUpAt)).toBe(
        true,
      );
    }
    // The leaving call was left alone: no hang-up, nothing said after it left.
    expect(twilio.call(leaving.sid).hangupRequested).toBe(false);
    expect(twilio.requestsTo('POST', `/Calls/${leaving.sid}.json`)).toHaveLength(0);

    const exit = await withTimeout(first.exited, signalledAt + EXIT_BOUND_MS - performance.now());
    const exitedAfterMs = performance.now() - signalledAt;
    expect({ exit, output: first.output() }).toMatchObject({ exit: { code: 0, signal: null } });
    expect(exitedAfterMs).toBeLessThan(EXIT_BOUND_MS);
    const log = first.output();
    expect(log).not.toMatch(/"stack"|\n\s+at \S+ \(|\n\s+at \S+:\d+:\d+/);
    const messages = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(
      expect.arrayContaining([
        'SIGTERM received: draining calls, requests and jobs',
        'Drain grace period over: ending the live calls',
        'Drained',
      ]),
    );
    expect(messages.at(-1)).toBe('Stopped');

    // Started again on the same data: the drained contacts are due again and are called; the one
    // who hung up by itself is done.
    round = 2;
    // The draining process placed no call, though the drained contacts were due at once.
    const placedBefore = twilio.calls.length;
    expect(placedBefore).toBe(STAYING.length + 1);
    const second = await start();
    await waitFor(
      () => STAYING.every((to) => twilio.calls.slice(placedBefore).some((call) => call.to === to)),
      { timeoutMs: 20_000, intervalMs: 100, what: 'the drained contacts to be called again' },
    );
    const details = await waitFor(
      async () => {
        const response = await second.http
          .get(`/api/call/batch-details/${batchId}?limit=10`)
          .set(auth)
          .expect(200);
        const data = response.body.data as {
          batchStatus: string;
          data: Array<{
            phoneNumber: string;
            phoneLogs?: Array<{ callStatus: string; turns: Array<{ role: string; text: string }> }>;
          }>;
        };
        return data.batchStatus === 'completed' && data;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the batch to complete' },
    );
    const byNumber = new Map(details.data.map((record) => [record.phoneNumber, record]));
    for (const to of STAYING) {
      const logs = byNumber.get(to)!.phoneLogs!;
      expect(logs.map((log) => log.callStatus)).toEqual(['failed', 'no-answer']);
      expect(logs[0].turns.at(-1)).toEqual(
        expect.objectContaining({ role: 'agent', text: DRAINING }),
      );
    }
    const left = byNumber.get(LEAVING)!.phoneLogs!;
    expect(left.map((log) => log.callStatus)).toEqual(['completed']);
    expect(left[0].turns.map((turn) => turn.text)).not.toContain(DRAINING);
    expect(twilio.calls.slice(placedBefore).map((call) => call.to)).not.toContain(LEAVING);

    second.child.kill('SIGTERM');
    expect(await withTimeout(second.exited, EXIT_BOUND_MS)).toEqual({ code: 0, signal: null });
    passed = true;
  });
});
