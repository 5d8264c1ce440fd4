/**
 * Messaging conversations (issue #15): the platform's webhook at 200 signed deliveries/s while
 * the model takes seconds per answer. The built API (dist/bundle/main.js, PROCESS_ROLE=api) and
 * a worker (dist/bundle/worker.js) on a throw-away PostgreSQL database and their own
 * redis-server; in this process the fake Graph API (receives the replies), the fake
 * OpenAI-compatible model (answers after --model-ms, default 2,000 ms) and the load: one text
 * message every 1/rate s (open loop, each from one of --customers customers), plus --dup-percent
 * of them delivered a second time at once (the platform redelivers). Reports the webhook's
 * answer time (p50/p99/max; target p99 ≤ 50 ms), and, once the queue drained, that every
 * distinct message got exactly one reply.
 *
 *   npm run build && npm run bench:messaging -- [--rate 200] [--seconds 30] [--model-ms 2000] [--write]
 *
 * The sender is open loop over keep-alive sockets and never waits for an answer before the next
 * message is due, so the offered rate it reports (messages / time until the last was sent) is
 * what the server was asked for; a slow server shows as answer time, not as a lower rate.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ChatFake, GraphFake, hubSignature, textMessageEvent } from '../test/fakes';
import { loadAverages, registerAdmin, withRedis } from './lib/bench-app';
import * as h from './lib/harness';
import { killChild, startWorker } from './webhooks/common';

const APP_SECRET = 'bench-app-secret';
const TARGET_P99_MS = 50;
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_MS ?? 300_000);

interface Options {
  rate: number;
  seconds: number;
  modelMs: number;
  customers: number;
  dupPercent: number;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    rate: 200,
    seconds: 30,
    modelMs: 2_000,
    customers: 500,
    dupPercent: 5,
    write: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const next = () => Number(argv[++i]);
    if (argv[i] === '--rate') options.rate = next();
    else if (argv[i] === '--seconds') options.seconds = next();
    else if (argv[i] === '--model-ms') options.modelMs = next();
    else if (argv[i] === '--customers') options.customers = next();
    else if (argv[i] === '--dup-percent') options.dupPercent = next();
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/** One signed POST of `body`; resolves with the status and the ms until the answer ended. */
function post(agent: Agent, port: number, body: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/messaging/webhook',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-hub-signature-256': hubSignature(APP_SECRET, body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function waitUntil(probe: () => Promise<boolean> | boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const m = await h.machine();
  const loadBefore = loadAverages();
  const graph = await GraphFake.start();
  const chat = await ChatFake.start();
  chat.latency = options.modelMs;
  // The answer names the question it answers, so each reply can be matched to its message.
  chat.respond = (req) => {
    const messages = req.body.messages as { role: string; content: string }[];
    const question = messages.at(-1)?.content ?? '';
    return { kind: 'text', pieces: ['Answer to ', question] };
  };
  const children: ChildProcess[] = [];
  await withRedis(async (redisUrl) => {
    try {
      // The deployment for this load: the API (PROCESS_ROLE=api) and a worker process, so the
      // webhook's answers do not wait for database connections the jobs hold.
      const env = {
        REDIS_URL: redisUrl,
        MESSAGING_API_URL: graph.baseUrl,
        MESSAGING_APP_SECRET: APP_SECRET,
        MESSAGING_VERIFY_TOKEN: 'bench-verify',
        LLM_API_URL: chat.url,
        LLM_FIRST_BYTE_TIMEOUT_MS: String(options.modelMs + 30_000),
        JWT_SECRET: randomBytes(32).toString('hex'),
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      };
      const { server, db, database } = await h.startOnPostgres({ ...env, PROCESS_ROLE: 'api' });
      startWorker({ ...env, DATABASE_URL: database.url, DATA_DIR: h.newDataDir() }, children);
      const { token } = await registerAdmin(server.port);
      const { account, token: graphToken } = graph.addAccount();
      const number = account.numbers[0];
      await h.json(
        server.port,
        'POST',
        '/api/messaging/messaging-integration',
        { phoneNumberId: number.id, accessToken: graphToken, businessAccountId: account.id },
        token,
      );
      await h.json(
        server.port,
        'POST',
        '/api/messaging/save-messaging-agent',
        { agentName: 'Bench', phoneNumberId: number.id, systemPrompt: 'You answer briefly.' },
        token,
      );

      const agent = new Agent({ keepAlive: true, maxSockets: 256 });
      const total = options.rate * options.seconds;
      const customers = Array.from({ length: options.customers }, (_, i) => `1415${2_000_000 + i}`);
      const latencies: number[] = [];
      const failures: number[] = [];
      const questions: string[] = [];
      const inflight: Promise<void>[] = [];
      const send = (body: string) =>
        post(agent, server.port, body).then(({ status, ms }) => {
          latencies.push(ms);
          if (status !== 200) failures.push(status);
        });
      // The bench process also runs both fakes: its own event-loop delay says whether the answer
      // times below are the server's or this process falling behind.
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const started = performance.now();
      let duplicates = 0;
      for (let i = 0; i < total; i += 1) {
        const due = started + (i * 1000) / options.rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const question = `question #${i}`;
        questions.push(question);
        const { payload } = textMessageEvent(number, {
          from: customers[i % customers.length],
          text: question,
        });
        const body = JSON.stringify(payload);
        inflight.push(send(body));
        if ((i * options.dupPercent) % 100 < options.dupPercent) {
          duplicates += 1;
          inflight.push(send(body));
        }
      }
      const offerSeconds = (performance.now() - started) / 1000;
      await Promise.all(inflight);
      const sendSeconds = (performance.now() - started) / 1000;
      loopDelay.disable();
      const benchLagMs = loopDelay.percentile(99) / 1e6;
      const loadDuring = loadAverages();

      await waitUntil(
        () => graph.sent.length >= total,
        DRAIN_TIMEOUT_MS,
        `${total} replies (got ${graph.sent.length})`,
      ).catch((error: unknown) => {
        console.error(server.output().slice(-4_000));
        throw error;
      });
      const drainSeconds = (performance.now() - started) / 1000;
      // Settled: every delivery processed and nothing left to send, so a late duplicate would show.
      await waitUntil(
        async () => {
          const { rows } = await db.query<{ open: string }>(
            `SELECT (SELECT count(*) FROM messaging_webhook_events WHERE processed_at IS NULL) +
                  (SELECT count(*) FROM messaging_messages WHERE status = 'pending') AS open`,
          );
          return Number(rows[0].open) === 0;
        },
        DRAIN_TIMEOUT_MS,
        'the queue to settle',
      );
      const replies = new Map<string, number>();
      for (const message of graph.sent) {
        const question = /question #\d+$/.exec(message.text ?? '')?.[0] ?? '?';
        replies.set(question, (replies.get(question) ?? 0) + 1);
      }
      const missing = questions.filter((q) => !replies.has(q)).length;
      const twice = [...replies.values()].filter((n) => n > 1).length;
      const p = h.percentiles(latencies);
      const ok = failures.length === 0 && missing === 0 && twice === 0 && p.p99 <= TARGET_P99_MS;
      agent.destroy();

      const report = [
        `${total} messages (+${duplicates} redelivered at once) sent in ${offerSeconds.toFixed(1)} s ` +
          `(${(total / offerSeconds).toFixed(0)}/s offered), all answered after ` +
          `${sendSeconds.toFixed(1)} s; model ${options.modelMs} ms per answer`,
        `webhook answer: p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, max ` +
          `${p.max.toFixed(1)} ms (target p99 ≤ ${TARGET_P99_MS} ms); non-200: ${failures.length}`,
        `replies: ${graph.sent.length} for ${total} messages; missing ${missing}, more than one ` +
          `${twice}; last reply ${drainSeconds.toFixed(1)} s after the first message`,
        `load average before ${loadBefore}; after sending ${loadDuring}; ` +
          `bench event-loop delay p99 ${benchLagMs.toFixed(1)} ms`,
        ok ? 'PASS' : 'FAIL',
      ];
      console.log(report.join('\n'));
      if (options.write) {
        await h.writeSection(
          '## Messaging webhook under load',
          m,
          [
            '## Messaging webhook under load',
            '',
            `\`npm run build && npm run bench:messaging -- --write\`, ${m.date}, on ` +
              `${h.describeMachine(m)}; the box is shared with other work (load average ` +
              `${loadBefore} before, ${loadDuring} after sending).`,
            '',
            'The built API (`PROCESS_ROLE=api`) and a worker process on PostgreSQL and their own ' +
              'redis-server; the fake Graph API and a fake OpenAI-compatible model that answers ' +
              `after ${options.modelMs} ms in the bench process. ${options.rate} signed text ` +
              `messages per second for ${options.seconds} s (open loop) from ` +
              `${options.customers} customers, ${options.dupPercent}% of them delivered twice at once.`,
            '',
            '| measure | value |',
            '| --- | --- |',
            `| messages (+ redelivered) | ${total} (+${duplicates}) |`,
            `| offered rate (sent over) | ${(total / offerSeconds).toFixed(0)}/s (${offerSeconds.toFixed(1)} s) |`,
            `| webhook 200, p50 / p95 / p99 / max | ${p.p50.toFixed(1)} / ${p.p95.toFixed(1)} / ${p.p99.toFixed(1)} / ${p.max.toFixed(1)} ms (target p99 ≤ ${TARGET_P99_MS} ms) |`,
            `| bench process event-loop delay p99 | ${benchLagMs.toFixed(1)} ms |`,
            `| non-200 answers | ${failures.length} |`,
            `| replies sent / missing / more than one | ${graph.sent.length} / ${missing} / ${twice} |`,
            `| last reply after the first message | ${drainSeconds.toFixed(1)} s |`,
            '',
            'The webhook only verifies the signature, stores the delivery and queues it, so its ' +
              'answer time does not depend on the model; the replies drain at the messaging ' +
              `lane's concurrency (600 jobs) divided by the model's latency.`,
            '',
          ].join('\n'),
        );
      }
      if (!ok) process.exitCode = 1;
      await db.end();
    } finally {
      // Before Redis stops: the worker would only log its lost connection.
      for (const child of children) await killChild(child);
    }
  }).finally(async () => {
    await chat.stop();
    await graph.close();
  });
}

h.run(main);
