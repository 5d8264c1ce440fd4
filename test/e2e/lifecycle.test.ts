import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTimeout } from '../../src/common/with-timeout';
import {
  BUILT_ENTRY,
  type BuiltServer,
  logMessages,
  ROOT,
  startBuiltServer,
} from '../support/built-server';
import { waitFor } from '../support/wait-for';

// The built server (`node dist/bundle/main.js`, embedded mode) stopped by a signal: during its
// start, and once it runs, with every log line written before it exits.

// PGlite's first start (initdb) takes 5-30 s on a busy 2-core box.
const START_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 150_000;

describe('lifecycle of the built server (embedded mode)', () => {
  let dataDir: string;
  let run: BuiltServer | undefined;

  beforeAll(() => {
    if (!existsSync(BUILT_ENTRY))
      throw new Error(`${BUILT_ENTRY} is missing: run "npm run build" first`);
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-lifecycle-'));
  });
  afterEach(() => {
    if (run && run.child.exitCode === null && run.child.signalCode === null)
      run.child.kill('SIGKILL');
    run = undefined;
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each<[NodeJS.Signals, string]>([
    ['SIGTERM', 'first start (initdb and migrations)'],
    ['SIGINT', 'restart (migrations checked)'],
  ])(
    'exits 0 without a stack trace on %s during its %s',
    async (signal) => {
      const current = (run = await startBuiltServer(dataDir));
      // The data dir lock is taken as the database opens, before migrations and listening.
      await waitFor(() => existsSync(join(dataDir, 'pglite.lock')), {
        timeoutMs: START_TIMEOUT_MS,
        intervalMs: 5,
        what: 'the embedded database to be opening',
      });
      expect(current.stdout()).not.toContain('Listening on port');
      current.child.kill(signal);
      // The start finishes (the migrations are not cut), then the app closes without listening.
      const exit = await withTimeout(current.exited, START_TIMEOUT_MS);
      expect({ exit, stderr: current.stderr() }).toEqual({
        exit: { code: 0, signal: null },
        stderr: '',
      });
      const messages = logMessages(current.stdout());
      expect(messages).toContain(`${signal} received while starting: stopping once started`);
      expect(messages).not.toContainEqual(expect.stringMatching(/^Listening on port/));
      expect(messages.at(-1)).toBe('Stopped');
      expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'writes every log line before it exits on SIGTERM (async logging, flushed at exit)',
    async () => {
      const current = (run = await startBuiltServer(dataDir));
      await waitFor(() => current.stdout().includes('Listening on port'), {
        timeoutMs: START_TIMEOUT_MS,
        what: 'the server to listen',
      });
      current.child.kill('SIGTERM');
      expect(await withTimeout(current.exited, START_TIMEOUT_MS)).toEqual({
        code: 0,
        signal: null,
      });
      const messages = logMessages(current.stdout());
      // No call to drain: the drain ends at once.
      expect(messages.slice(-4)).toEqual([
        'SIGTERM received: draining calls, requests and jobs',
        'Draining: no new work; live calls have 120 s to end',
        'Drained',
        'Stopped',
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it('writes every line logged just before process.exit() (async destination flushed at exit)', () => {
    const lines = 2_000;
    const stdout = execFileSync(
      process.execPath,
      [join(ROOT, 'test/fixtures/logging/log-burst.js')],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, LINES: String(lines) },
        encoding: 'utf8',
      },
    );
    const logged = stdout.trim().split('\n');
    expect(logged).toHaveLength(lines);
    expect(JSON.parse(logged[lines - 1])).toMatchObject({ line: lines, msg: 'burst' });
  });
});
