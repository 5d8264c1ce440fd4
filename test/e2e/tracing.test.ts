import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { withTimeout } from '../../src/common/with-timeout';
import { createApiKey, registerOrganization } from '../support/factories';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { deleteRedisKeys, REDIS_TEST_URL } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import request from 'supertest';

// The built server with OTEL_EXPORTER_OTLP_ENDPOINT set, on PostgreSQL and Redis, exporting to a
// collector that speaks OTLP/HTTP (JSON): requests, statements, Redis commands and queue jobs
// arrive as spans.

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/bundle/main.js');
const START_TIMEOUT_MS = 60_000;
jest.setTimeout(120_000);

interface OtlpSpan {
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

/** Keeps what an OTLP/HTTP exporter posts to /v1/traces. */
class OtlpCollector {
  private constructor(
    private readonly server: Server,
    private readonly exports: OtlpExport[],
  ) {}

  static async start(port: number): Promise<OtlpCollector> {
    const exports: OtlpExport[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces' && req.headers['content-type'] === 'application/json') {
          exports.push(JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    return new OtlpCollector(server, exports);
  }

  spans(): Array<OtlpSpan & { scope: string; service?: string }> {
    return this.exports.flatMap((e) =>
      e.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) =>
          ss.spans.map((span) => ({
            ...span,
            scope: ss.scope.name,
            service: rs.resource.attributes.find((a) => a.key === 'service.name')?.value
              .stringValue,
          })),
        ),
      ),
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}

describe('traces of the built server (OTLP/HTTP)', () => {
  let database: TestDatabase;
  let collector: OtlpCollector;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  const prefix = `sbtest-${randomBytes(4).toString('hex')}`;
  const secrets: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const collectorPort = await freePort();
    collector = await OtlpCollector.start(collectorPort);
    const port = await freePort();
    child = spawn(process.execPath, [ENTRY], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: prefix,
        JWT_SECRET: 'tracing-test-secret-that-is-long-enough-0123456789',
        ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
        DIALER_TICK_MS: '0',
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
        // Export every 100 ms instead of every 5 s: the test waits on what arrives.
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const http = request(`http://127.0.0.1:${port}`);
    await waitFor(
      async () => {
        try {
          return (await http.get('/health/ready')).status === 200;
        } catch {
          return false;
        }
      },
      { timeoutMs: START_TIMEOUT_MS, intervalMs: 200, what: 'the server to be ready' },
    );
    const admin = await registerOrganization(http);
    const key = await createApiKey(http, admin.token);
    secrets.push(admin.email, key.key);
    // An API key's use is recorded by a queued job.
    await http.get('/api/agents').set({ 'x-api-key': key.key }).expect(200);
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await collector?.close();
    await database?.drop();
    await deleteRedisKeys(REDIS_TEST_URL, prefix);
  });

  it('exports spans of requests, statements, Redis commands and queue jobs, then flushes on SIGTERM', async () => {
    await waitFor(() => collector.spans().some((s) => s.name === 'job api-keys.record-use'), {
      timeoutMs: 20_000,
      what: 'the span of the api-key job',
    });
    child.kill('SIGTERM');
    expect(await withTimeout(exited, 30_000)).toBe(0);
    const spans = collector.spans();
    const scopes = new Set(spans.map((s) => s.scope));
    expect([...scopes]).toEqual(
      expect.arrayContaining([
        '@opentelemetry/instrumentation-http',
        '@opentelemetry/instrumentation-pg',
        '@opentelemetry/instrumentation-ioredis',
        'switchboard',
      ]),
    );
    expect(spans.every((s) => s.service === 'switchboard-api')).toBe(true);
    // SERVER spans of the API's requests; never a bound value (an e-mail, a key) anywhere.
    expect(spans.some((s) => s.kind === 2 && s.name.startsWith('POST'))).toBe(true);
    const text = JSON.stringify(spans);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
