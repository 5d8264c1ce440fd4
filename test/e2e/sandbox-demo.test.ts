import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { waitFor } from '../support/wait-for';

// `npm run sandbox -- --demo` and `-- --talk` as users run them: a clean environment (no
// DATABASE_URL, REDIS_URL or LLM_API_URL: embedded PGlite, the in-process queue, the offline speech
// engine and the local chat stand-in), to the end or to Ctrl-C.

const ROOT = resolve(__dirname, '../..');
const RUN_TIMEOUT_MS = 150_000;
// A real conversation: three turns heard by PocketSphinx and answered in real time, on cores that
// other work shares.
const TALK_TIMEOUT_MS = 300_000;
jest.setTimeout(RUN_TIMEOUT_MS + 30_000);

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

function startDemo(...args: string[]): Run {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      join('scripts', 'sandbox.ts'),
      ...(args.length ? args : ['--demo']),
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_EXTRA_CA_CERTS: join(ROOT, 'test/fixtures/tls/ca.crt'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((settle) =>
    child.once('exit', (code) => {
      running.delete(child);
      settle(code);
    }),
  );
  return { child, output: () => chunks.join(''), exited };
}

const dataDirOf = (output: string) => /\(data: ([^)]+)\)/.exec(output)?.[1];

async function toTheEnd(run: Run, timeoutMs = RUN_TIMEOUT_MS): Promise<number | null | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    run.exited,
    new Promise<'timeout'>((settle) => (timer = setTimeout(() => settle('timeout'), timeoutMs))),
  ]).finally(() => clearTimeout(timer));
}

describe('npm run sandbox -- --demo', () => {
  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
  });

  it('dials the demo batch to completion, verifies every event and leaves nothing behind', async () => {
    const demo = startDemo();
    const code = await toTheEnd(demo);
    const output = demo.output();
    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toContain('enforceCalleeLocalHours false');
    expect(output).toMatch(/callback {2}Plivo .*→ 200/);
    expect(output).toMatch(/callback {2}Twilio .*→ 200/);
    expect(output).toMatch(/callback {2}Telnyx .*→ 200/);
    // 9 contacts: 3 answered, 3 busy then answered, 3 unanswered twice.
    expect(output.match(/signature verified/g)).toHaveLength(36);
    expect(output).toContain('+12125550101 Contact 2: busy (0 s), then completed');
    // How many callbacks depends on which provider's number dialed whom (rotation).
    expect(output).toMatch(
      /Batch completed: 9 contacts, 6 picked up, 6 completed; \d+ provider callbacks, 36 signed events \(0 failed verification\)\./,
    );
    expect(output).not.toMatch(/callback .*→ (?!200)/);
    const dataDir = dataDirOf(output);
    expect(dataDir).toBeDefined();
    expect(existsSync(dataDir!)).toBe(false);
  });

  it('stops on Ctrl-C and removes its data directory', async () => {
    const demo = startDemo();
    await waitFor(() => /Batch \w+: 9 contacts/.test(demo.output()), {
      timeoutMs: RUN_TIMEOUT_MS,
      intervalMs: 100,
      what: 'the demo batch to be created',
    });
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(130);
    const dataDir = dataDirOf(demo.output());
    expect(dataDir).toBeDefined();
    expect(existsSync(dataDir!)).toBe(false);
  });

  it(
    '--talk: the agent and the recorded caller hold a conversation, transcribed and analysed',
    async () => {
      const talk = startDemo('--talk', '--save-audio');
      const code = await toTheEnd(talk, TALK_TIMEOUT_MS);
      const output = talk.output();
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).toContain('No LLM_API_URL set');
      const turns = [...output.matchAll(/^ {2}(Agent |Caller): (.*)$/gm)].map(([, role, text]) => ({
        role: role.trim(),
        text,
      }));
      expect(turns[0]).toEqual({
        role: 'Agent',
        text: 'Hello, this is Ava from the Switchboard sandbox. How can I help?',
      });
      // The offline engine heard the caller's question, and the agent answered it from the
      // knowledge base, then said goodbye and hung up.
      const question = turns.findIndex(
        (turn) => turn.role === 'Caller' && turn.text.includes('located'),
      );
      expect(question).toBeGreaterThan(0);
      expect(turns[question + 1]).toEqual({
        role: 'Agent',
        text: expect.stringContaining('12 Harbour Street') as string,
      });
      expect(turns.at(-1)).toEqual({ role: 'Agent', text: 'Thank you for calling. Goodbye!' });
      for (const type of ['call.completed', 'call.summary.generated', 'call.analysis.completed']) {
        expect(output).toMatch(
          new RegExp(`event {3}${type.replace(/\./g, '\\.')} .*signature verified`),
        );
      }
      expect(output).not.toContain('unverifiable');
      const dataDir = dataDirOf(output);
      expect(dataDir).toBeDefined();
      expect(existsSync(dataDir!)).toBe(false);
      const audio = /to listen to .*: (\S+\.wav)/.exec(output)?.[1];
      expect(audio).toBeDefined();
      try {
        // Both sides, some seconds of them: 8 kHz 16-bit mono after a 44-byte header.
        expect(statSync(audio!).size).toBeGreaterThan(44 + 16000 * 5);
      } finally {
        rmSync(dirname(audio!), { recursive: true, force: true });
      }
    },
    TALK_TIMEOUT_MS + 30_000,
  );
});
