import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FuzzTarget } from './fuzz-target';
import { loadOperations } from './openapi-model';
import { coverageProblems, failureReport, isFailure } from './report';
import { runFuzz } from './runner';

// The gate must catch what it claims to: a small API with planted faults, described by its own
// OpenAPI document, goes through the same generator, oracle and shrinker as the real app.

const KEY = 'self-check-key';
const ADMIN_TOKEN = 'self-check-admin';
const ID = '65f1c0ffee0123456789abcd';
const envelope = {
  message: { type: 'string' },
  status: { type: 'boolean' },
  code: { type: 'integer' },
};
const ok = (data: object) => ({
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'status', 'code', 'data'],
        properties: { ...envelope, data: data },
      },
    },
  },
});
const secured = [{ 'api-key': [] }];
const document = {
  openapi: '3.0.0',
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        security: secured,
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string', maxLength: 50 }, size: { type: 'integer' } },
              },
            },
          },
        },
        responses: { '201': ok({ type: 'object' }) },
      },
    },
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        security: secured,
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': ok({ type: 'object' }) },
      },
    },
    '/uploads': {
      post: {
        operationId: 'uploadThing',
        security: secured,
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['title'],
                properties: {
                  title: { type: 'string', maxLength: 50 },
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: { '201': ok({ type: 'object' }) },
      },
    },
    '/clean': {
      get: {
        operationId: 'cleanThing',
        security: secured,
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
        responses: { '200': ok({ type: 'string' }) },
      },
    },
  },
};

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const fail = (status: number) => ({
  message: 'No',
  status: false,
  code: status,
  errorMessage: 'no',
});

/**
 * Planted faults: a NUL in createThing's name is a 500, a `%` leaks SQL, getThing's 404 is bare;
 * uploadThing accepts a body without its closing boundary and answers 500 when the boundary of
 * its header frames nothing.
 */
function plantedApi(req: IncomingMessage, res: ServerResponse, raw: string): void {
  const admin = req.headers.authorization === `Bearer ${ADMIN_TOKEN}`;
  if (req.headers['x-api-key'] !== KEY && !admin) return answer(res, 401, fail(401));
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method === 'POST' && url.pathname === '/things') {
    let body: { name?: unknown };
    try {
      body = JSON.parse(raw) as { name?: unknown };
    } catch {
      return answer(res, 400, fail(400));
    }
    if (typeof body?.name !== 'string') return answer(res, 400, fail(400));
    if (body.name.includes('\u0000')) return answer(res, 500, fail(500));
    if (body.name.includes('%')) {
      return answer(res, 400, { ...fail(400), errorMessage: 'syntax error at or near "%"' });
    }
    return answer(res, 201, { message: 'Created', status: true, code: 201, data: {} });
  }
  if (req.method === 'GET' && url.pathname.startsWith('/things/')) {
    if (url.pathname !== `/things/${ID}`) return answer(res, 404, { error: 'not found' });
    return answer(res, 200, { message: 'Thing', status: true, code: 200, data: {} });
  }
  if (req.method === 'POST' && url.pathname === '/uploads') {
    const boundary = /boundary=(\S+)/.exec(req.headers['content-type'] ?? '')?.[1];
    if (!boundary) return answer(res, 400, fail(400));
    if (!raw.includes(`--${boundary}\r\n`)) return answer(res, 500, fail(500));
    return answer(res, 201, { message: 'Uploaded', status: true, code: 201, data: {} });
  }
  if (req.method === 'GET' && url.pathname === '/clean') {
    return answer(res, 200, { message: 'Clean', status: true, code: 200, data: 'ok' });
  }
  return answer(res, 404, fail(404));
}

describe('fuzz gate self-check: planted faults are found', () => {
  let server: Server;
  let dir: string;
  let target: FuzzTarget;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => plantedApi(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'sb-fuzz-self-check-'));
    target = {
      driver: 'postgres',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: {
        apiKey: KEY,
        adminToken: ADMIN_TOKEN,
        memberToken: 'not-a-token',
        forgedJwts: ['forged'],
        forgedKeys: ['forged'],
      },
      ids: { thing: [ID] },
      close: () => Promise.resolve(),
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the 500s, the SQL text, the bare 404 and the accepted broken upload, each with a minimal cause, and nothing else', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const operations = loadOperations(file);
    const result = await runFuzz(target, operations, {
      seed: 18,
      casesPerOperation: 200,
      concurrency: 6,
      requestTimeoutMs: 5_000,
    });
    const found = result.families
      .filter(isFailure)
      .map((f) => `${f.operationId} | ${f.symptom} | ${f.causes.join(' + ')}`);

    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^createThing \| status 500 \| (NUL byte|only NUL)$/),
        expect.stringMatching(/^createThing \| leak: SQL text "syntax error" \| /),
        expect.stringMatching(/^getThing \| error envelope has extra keys error \| /),
        expect.stringMatching(
          /^uploadThing \| success for a broken multipart body \(truncated\) \| truncated \(last 40 bytes cut\)$/,
        ),
        expect.stringMatching(
          /^uploadThing \| success for a broken multipart body \(unterminated\) \| unterminated \(no closing boundary\)$/,
        ),
        expect.stringMatching(
          /^uploadThing \| status 500 \| mis-bounded \(header names another boundary\)$/,
        ),
      ]),
    );
    expect(
      found.filter(
        (line) =>
          line.startsWith('uploadThing') && !/truncated|unterminated|mis-bounded/.test(line),
      ),
    ).toEqual([]);
    expect(found.filter((line) => line.startsWith('cleanThing'))).toEqual([]);
    expect(result.serverErrors).toBeGreaterThan(0);
    expect(coverageProblems(result)).toEqual([]);
    expect(failureReport('self-check', result)).toMatch(/-> createThing\b/);
  }, 60_000);
});
