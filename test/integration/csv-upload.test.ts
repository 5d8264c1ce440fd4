import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { CallingFactories } from '../support/calling-factories';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// Uploads over a real socket: a slow one must not hold embedded PGlite's one connection, and one
// over the size limit is refused as soon as it crosses it, its connection closed.

jest.setTimeout(120_000);

const BOUNDARY = 'switchboard-test-boundary';
let sequence = 0;
const nextNumber = () => `+1650999${String(1000 + (sequence += 1))}`;

/** A chunked multipart upload written by hand, so the test decides when each byte is sent. */
class RawUpload {
  readonly socket: Socket;
  sent = 0;
  response = '';
  closed = false;
  /** Bytes sent when the first byte of the answer arrived. */
  sentAtAnswer?: number;

  constructor(server: Server, path: string, token: string) {
    const { port } = server.address() as AddressInfo;
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (text: string) => {
      this.sentAtAnswer ??= this.sent;
      this.response += text;
    });
    this.socket.on('error', () => undefined); // EPIPE / ECONNRESET once the server closes
    this.socket.on('close', () => (this.closed = true));
    this.socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
  }

  field(name: string, value: string): Promise<boolean> {
    return this.chunk(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
  }

  fileStart(): Promise<boolean> {
    return this.chunk(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\nphoneNumber\n',
    );
  }

  /** Resolves once the data is handed to the OS (false when the socket is gone). */
  chunk(data: string | Buffer): Promise<boolean> {
    if (this.closed || this.socket.destroyed) return Promise.resolve(false);
    const bytes = Buffer.byteLength(data);
    this.sent += bytes;
    return new Promise((done) => {
      this.socket.write(`${bytes.toString(16)}\r\n`);
      this.socket.write(data);
      this.socket.write('\r\n', (error) => done(!error));
    });
  }

  async end(): Promise<void> {
    await this.chunk(`\r\n--${BOUNDARY}--\r\n`);
    this.socket.write('0\r\n\r\n');
  }

  /** Status line, headers and body of the answer, once it has fully arrived. */
  async answer(): Promise<{ status: number; headers: string; body: Record<string, unknown> }> {
    const parsed = await waitFor(
      () => {
        const [head, rest] = this.response.split('\r\n\r\n');
        if (rest === undefined) return undefined;
        const length = /content-length: (\d+)/i.exec(head);
        if (!length || Buffer.byteLength(rest) < Number(length[1])) return undefined;
        return { head, body: rest.slice(0, Number(length[1])) };
      },
      { timeoutMs: 30_000, what: 'the answer to the upload' },
    );
    return {
      status: Number(parsed.head.split(' ')[1]),
      headers: parsed.head.toLowerCase(),
      body: JSON.parse(parsed.body) as Record<string, unknown>,
    };
  }
}

describe('CSV uploads over a socket', () => {
  describe('embedded PGlite', () => {
    let dataDir: string;
    let app: NestExpressApplication;
    let admin: RegisteredAdmin;
    let phoneId: string;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'switchboard-upload-test-'));
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
      app = await createApp(config, { logger: false });
      await app.listen(0, '127.0.0.1');
      admin = await registerOrganization(request(app.getHttpServer()));
      const make = new CallingFactories({ app } as TestApp);
      phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    });
    afterAll(async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves other requests while a client is still uploading a createBatch CSV', async () => {
      const server = app.getHttpServer();
      const serverSockets: Socket[] = [];
      const track = (socket: Socket) => serverSockets.push(socket);
      server.on('connection', track);
      const upload = new RawUpload(server, '/api/call/createBatch', admin.token);
      try {
        await upload.field('batchName', 'Slow upload');
        await upload.field('callingNumbers', phoneId);
        await upload.fileStart();
        await upload.chunk(`${nextNumber()}\n${nextNumber()}\n`);
        // The server has read all of it: the fields and the beginning of the file.
        await waitFor(() => serverSockets.some((socket) => socket.bytesRead >= upload.sent), {
          what: 'the server to read the start of the upload',
        });

        const started = Date.now();
        const listed = await request(server)
          .get(`/api/call/batches/${admin.userId}`)
          .set('Authorization', `Bearer ${admin.token}`)
          .timeout(10_000);
        expect(listed.status).toBe(404); // no batch yet: the upload has not finished
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(upload.response).toBe('');

        await upload.chunk(`${nextNumber()}\n`);
        await upload.end();
        const answer = await upload.answer();
        expect(answer.status).toBe(201);
        expect(answer.body.contacts).toMatchObject({ received: 3, imported: 3 });
      } finally {
        server.off('connection', track);
        upload.socket.destroy();
      }
    });
  });

  describe('over the size limit', () => {
    const LIMIT = 1024 * 1024;
    /** What the client would send in all: far more than the limit plus any socket buffers. */
    const WHOLE_UPLOAD = 64 * LIMIT;
    let t: TestApp;
    let admin: RegisteredAdmin;
    let batchId: string;

    beforeAll(async () => {
      t = await startTestApp({ env: { UPLOAD_MAX_BYTES: String(LIMIT) } });
      await t.app.listen(0, '127.0.0.1');
      admin = await registerOrganization(t.http);
      batchId = (await new CallingFactories(t).batch(admin.organizationId, admin.userId)).id;
    });
    afterAll(async () => {
      await t.close();
    });

    // The client is still writing when the answer comes: it must read the 413 before the
    // connection goes (a reset on close used to take the answer with it, see closeAfterAnswer).
    it('answers 413 soon after the limit is crossed and closes the connection instead of reading on', async () => {
      const server = t.app.getHttpServer();
      const upload = new RawUpload(server, `/api/call/batches/${batchId}/contacts`, admin.token);
      try {
        await upload.fileStart();
        const rows = `${'+14155550100\n'.repeat(5_000)}`;
        const started = Date.now();
        let open = true;
        while (open && upload.sent < WHOLE_UPLOAD) open = await upload.chunk(rows);
        await waitFor(() => upload.closed, { what: 'the server to close the connection' });
        const answer = await upload.answer();
        expect(answer.status).toBe(413);
        expect(answer.body).toMatchObject({ status: false, code: 413 });
        expect(answer.headers).toContain('connection: close');
        // What the client got in before the answer: the limit plus what the sockets buffer.
        expect(upload.sentAtAnswer).toBeLessThan(LIMIT + 16 * 1024 * 1024);
        expect(upload.sent).toBeLessThan(WHOLE_UPLOAD);
        expect(Date.now() - started).toBeLessThan(10_000);
      } finally {
        upload.socket.destroy();
      }
    });
  });
});
