import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '../support/wait-for';

// `npm run sandbox -- --demo` as users run it: a clean environment (no DATABASE_URL or
// REDIS_URL: embedded PGlite and the in-process queue), to its end or to Ctrl-C.

const ROOT = resolve(__dirname, '../..');
const RUN_TIMEOUT_MS = 150_000;
jest.setTimeout(RUN_TIMEOUT_MS + 30_000);

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

function startDemo(): Run {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join('scripts', 'sandbox.ts'), '--demo'],
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

describe('npm run sandbox -- --demo', () => {
  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
  });

  it('dials the demo batch to completion, verifies every event and leaves nothing behind', async () => {
    const demo = startDemo();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      demo.exited,
      new Promise<'timeout'>(
        (settle) => (timer = setTimeout(() => settle('timeout'), RUN_TIMEOUT_MS)),
      ),
    ]).finally(() => clearTimeout(timer));
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
});
