import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port';
import { waitFor } from '../support/wait-for';

// End to end: the built server as users run it (`node dist/bundle/main.js`), on embedded defaults:
// no DATABASE_URL (PGlite in DATA_DIR) and no REDIS_URL (in-process queue).

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/bundle/main.js');
// PGlite's first start (initdb) takes ~5 s on a 2-core box; leave room for a busy machine.
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;
const TEST_TIMEOUT_MS = 150_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<Exit>;
  hasExited(): boolean;
  output(): string;
}

interface Envelope<T = Record<string, unknown>> {
  message: string;
  status: boolean;
  code: number;
  data: T;
}

const running = new Set<Server>();

/** Starts `node dist/bundle/main.js` with a clean environment: only what the test sets. */
async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    // Nothing from the caller's shell (DATABASE_URL, REDIS_URL, NODE_OPTIONS...) leaks in.
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  let done = false;
  const exited = new Promise<Exit>((settle) => {
    child.once('exit', (code, signal) => {
      done = true;
      settle({ code, signal });
    });
  });
  const server: Server = {
    child,
    url: `http://127.0.0.1:${port}`,
    exited,
    hasExited: () => done,
    output: () => chunks.join(''),
  };
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
}

async function waitForExit(server: Server, timeoutMs: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `pid ${server.child.pid} still running after ${timeoutMs} ms:\n${server.output()}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([server.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls GET /health/ready until 200; fails at once, with the server's output, if it exits. */
async function waitUntilReady(server: Server): Promise<void> {
  await waitFor(
    async () => {
      if (server.hasExited()) {
        throw new Error(`server exited before it was ready:\n${server.output()}`);
      }
      try {
        const response = await fetch(`${server.url}/health/ready`);
        return response.status === 200;
      } catch {
        return false; // not listening yet
      }
    },
    { timeoutMs: READY_TIMEOUT_MS, intervalMs: 50, what: `${server.url}/health/ready` },
  );
}

async function call<T = Record<string, unknown>>(
  server: Server,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

async function stop(server: Server): Promise<void> {
  if (server.hasExited()) return;
  server.child.kill('SIGTERM');
  try {
    await waitForExit(server, STOP_TIMEOUT_MS);
  } catch {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

describe('embedded mode: the built server without DATABASE_URL and REDIS_URL', () => {
  let dataDir: string;
  let first: Server;
  const account = {
    organizationName: 'Embedded Org',
    name: 'Ada Admin',
    email: `ada-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
  };
  let token: string;

  beforeAll(() => {
    if (!existsSync(ENTRY)) {
      throw new Error(`${ENTRY} is missing: run \`npm run build\` before \`npm run test:e2e\`.`);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'sb-e2e-embedded-'));
  });

  afterAll(async () => {
    await Promise.all([...running].map(stop));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, STOP_TIMEOUT_MS * 3);

  it(
    'starts on a fresh data dir, then registers, logs in and reads /api/auth/me',
    async () => {
      first = await startServer(dataDir);
      await waitUntilReady(first);

      const registered = await call<{ accessToken: string; user: { email: string } }>(
        first,
        'POST',
        '/api/auth/register',
        { body: account },
      );
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({
        message: 'Organization registered',
        status: true,
        code: 201,
        data: { user: { email: account.email } },
      });
      expect(typeof registered.body.data.accessToken).toBe('string');

      const login = await call<{ accessToken: string }>(first, 'POST', '/api/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ message: 'Logged in', status: true, code: 200 });
      token = login.body.data.accessToken;
      expect(typeof token).toBe('string');

      const me = await call(first, 'GET', '/api/auth/me', { token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        message: 'Current user',
        status: true,
        code: 200,
        data: { email: account.email, name: account.name, role: 'admin' },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses a second process on the same data dir and leaves the first one serving',
    async () => {
      const second = await startServer(dataDir);
      const exit = await waitForExit(second, READY_TIMEOUT_MS);
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(second.output()).toContain(
        `The embedded database at ${join(dataDir, 'pglite')} is in use by process ${first.child.pid}`,
      );

      // The refused process must not have taken or removed the first one's lock.
      expect(readFileSync(join(dataDir, 'pglite.lock'), 'utf8').trim()).toBe(
        String(first.child.pid),
      );
      expect(first.hasExited()).toBe(false);
      expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
      const me = await call(first, 'GET', '/api/auth/me', { token });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ email: account.email });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'stops gracefully on SIGTERM with exit code 0 and releases the data dir',
    async () => {
      first.child.kill('SIGTERM');
      const exit = await waitForExit(first, STOP_TIMEOUT_MS);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'restarts on the same data dir with the user, and the old token, still valid',
    async () => {
      const restarted = await startServer(dataDir);
      await waitUntilReady(restarted);

      // The JWT secret lives in DATA_DIR/secrets.json, so a token from before the restart works.
      const meWithOldToken = await call(restarted, 'GET', '/api/auth/me', { token });
      expect(meWithOldToken.status).toBe(200);
      expect(meWithOldToken.body).toMatchObject({
        status: true,
        code: 200,
        data: { email: account.email },
      });

      const login = await call<{ accessToken: string }>(restarted, 'POST', '/api/auth/login', {
        body: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ status: true, code: 200 });

      const wrongPassword = await call(restarted, 'POST', '/api/auth/login', {
        body: { email: account.email, password: 'not the password' },
      });
      expect(wrongPassword.status).toBe(401);

      await stop(restarted);
    },
    TEST_TIMEOUT_MS,
  );
});
