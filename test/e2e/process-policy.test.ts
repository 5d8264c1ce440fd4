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

// The process policy (src/process-policy.ts) in the built server (embedded mode): a fixture
// preloaded with --require makes one fault on SIGUSR2. An unhandled rejection is logged once and
// counted, and the server goes on answering; an uncaught exception is logged, then the server
// drains as on SIGTERM and exits 1. Neither shows the error's message (a made-up secret).

const FIXTURE = join(ROOT, 'test/fixtures/process/fault-on-signal.js');
const SECRET = 'sk-fixture-secret';
const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
// PGlite's first start (initdb) takes 5-30 s on a busy 2-core box.
const START_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 150_000;

/** The built server with the fault fixture preloaded, once it listens. */
async function start(dataDir: string, fault: 'rejection' | 'exception'): Promise<BuiltServer> {
  const server = await startBuiltServer(dataDir, {
    METRICS_TOKEN,
    NODE_OPTIONS: `--require ${FIXTURE}`,
    FAULT: fault,
  });
  await waitFor(() => server.stdout().includes('Listening on port'), {
    timeoutMs: START_TIMEOUT_MS,
    what: 'the server to listen',
  });
  return server;
}

describe('process policy of the built server (embedded mode)', () => {
  let dataDir: string;
  let run: BuiltServer | undefined;

  beforeAll(() => {
    if (!existsSync(BUILT_ENTRY))
      throw new Error(`${BUILT_ENTRY} is missing: run "npm run build" first`);
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-process-policy-'));
  });
  afterEach(() => {
    if (run && run.child.exitCode === null && run.child.signalCode === null)
      run.child.kill('SIGKILL');
    run = undefined;
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'survives an unhandled rejection: logged once without its message, counted, still answering',
    async () => {
      const current = (run = await start(dataDir, 'rejection'));
      const base = `http://127.0.0.1:${current.port}`;
      const scrape = async () =>
        (
          await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text();
      expect(await scrape()).toMatch(/^switchboard_unhandled_rejections_total 0$/m);

      current.child.kill('SIGUSR2');
      const rejections = () =>
        logMessages(current.stdout()).filter((message) => message.includes('rejection'));
      await waitFor(() => rejections().length > 0, {
        timeoutMs: 10_000,
        what: 'the rejection to be logged',
      });

      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      expect(await scrape()).toMatch(/^switchboard_unhandled_rejections_total 1$/m);
      expect(rejections()).toEqual([
        expect.stringMatching(
          /^Unhandled promise rejection \(survived\): \{"error":"Error","at":"/,
        ),
      ]);
      expect(current.child.exitCode).toBeNull();
      expect(`${current.stdout()}${current.stderr()}`).not.toContain(SECRET);
      expect(current.stderr()).toBe('');

      // Still the server it was: SIGTERM stops it cleanly.
      current.child.kill('SIGTERM');
      expect(await withTimeout(current.exited, START_TIMEOUT_MS)).toEqual({
        code: 0,
        signal: null,
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'stops on an uncaught exception: logged without its message, drained as on SIGTERM, exit 1',
    async () => {
      const current = (run = await start(dataDir, 'exception'));
      current.child.kill('SIGUSR2');
      expect(await withTimeout(current.exited, START_TIMEOUT_MS)).toEqual({
        code: 1,
        signal: null,
      });
      const messages = logMessages(current.stdout());
      expect(messages.slice(-5)).toEqual([
        expect.stringMatching(/^Uncaught exception, stopping: \{"error":"Error","at":"/),
        'Uncaught exception: draining calls, requests and jobs',
        // No call to drain: the drain ends at once.
        'Draining: no new work; live calls have 120 s to end',
        'Drained',
        'Stopped',
      ]);
      expect(`${current.stdout()}${current.stderr()}`).not.toContain(SECRET);
      expect(current.stderr()).toBe('');
      expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
