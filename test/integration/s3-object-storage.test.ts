import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  S3_PART_BYTES,
  S3_PARTS_IN_FLIGHT,
  S3ObjectStorage,
} from '../../src/storage/s3-object-storage';
import { startS3Server, type S3TestServer } from '../support/s3-server';

const CHUNK = 64 * 1024;

/** Deterministic bytes, made as they are read, counting what the reader has taken. */
function source(totalBytes: number, failAfter?: Error) {
  let emitted = 0;
  const hash = createHash('sha256');
  const stream = new Readable({
    read() {
      if (emitted >= totalBytes) {
        if (failAfter) this.destroy(failAfter);
        else this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(CHUNK, totalBytes - emitted), emitted % 251);
      emitted += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, emitted: () => emitted, sha256: () => hash.digest('hex') };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('S3ObjectStorage on an S3-compatible server', () => {
  let s3: S3TestServer;
  let client: S3Client;
  let storage: S3ObjectStorage;
  /** The SDK commands sent, in order, with the source's byte count when each was sent. */
  let sent: Array<{ command: string; emitted: number }>;
  let emitted: () => number;

  beforeAll(async () => {
    s3 = await startS3Server();
    client = createS3Client(s3.config);
    client.middlewareStack.add(
      (next, context) => (args) => {
        sent.push({ command: context.commandName ?? 'unknown', emitted: emitted() });
        return next(args);
      },
      { step: 'initialize' },
    );
    storage = new S3ObjectStorage(client, s3.config.bucket);
  });
  beforeEach(() => {
    sent = [];
    emitted = () => 0;
  });
  afterAll(async () => {
    storage.onApplicationShutdown();
    await s3.close();
  });

  const commands = () => sent.map((entry) => entry.command);

  it('stores, reads and deletes an object; a missing key reads as null and deletes quietly', async () => {
    await storage.put('kbdoc-one', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(await s3.keys()).toEqual(['kbdoc-one']);
    expect((await buffer((await storage.get('kbdoc-one'))!)).toString()).toBe('hello world');

    await storage.delete('kbdoc-one');
    expect(await s3.keys()).toEqual([]);
    expect(await storage.get('kbdoc-one')).toBeNull();
    await expect(storage.delete('kbdoc-one')).resolves.toBeUndefined();
    expect(await storage.get('kbdoc-never-stored')).toBeNull();
  });

  it('refuses keys outside the generated pattern before sending anything', async () => {
    await expect(storage.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.get('a/b')).rejects.toThrow(/Invalid storage key/);
    await expect(storage.delete('')).rejects.toThrow(/Invalid storage key/);
    expect(sent).toEqual([]);
  });

  it('treats a missing bucket as an error, not as a missing object', async () => {
    const elsewhere = new S3ObjectStorage(client, 'no-such-bucket');
    await expect(elsewhere.get('kbdoc-one')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('streams a body of several parts without holding it whole', async () => {
    const total = 4 * S3_PART_BYTES + 123_457;
    const body = source(total);
    emitted = body.emitted;
    await storage.put('kbdoc-large', body.stream);

    expect(commands()).toEqual([
      'CreateMultipartUploadCommand',
      ...Array<string>(5).fill('UploadPartCommand'),
      'CompleteMultipartUploadCommand',
    ]);
    // The first part left with at most the parts in flight read, the rest of the body unread.
    const firstPart = sent.find((entry) => entry.command === 'UploadPartCommand')!;
    expect(firstPart.emitted).toBeLessThanOrEqual(S3_PARTS_IN_FLIGHT * S3_PART_BYTES + 2 * CHUNK);
    expect(firstPart.emitted).toBeLessThan(total - S3_PART_BYTES);
    const stored = await buffer((await storage.get('kbdoc-large'))!);
    expect(stored.length).toBe(total);
    expect(sha256(stored)).toBe(body.sha256());
    await storage.delete('kbdoc-large');
  });

  it('leaves nothing when the body fails before its first part is sent', async () => {
    const failure = new Error('over the limit');
    const body = source(S3_PART_BYTES - CHUNK, failure);
    await expect(storage.put('kbdoc-short', body.stream)).rejects.toBe(failure);
    expect(commands()).toEqual([]);
    expect(await storage.get('kbdoc-short')).toBeNull();
  });

  it('aborts the multipart upload when the body fails after parts were sent, keeping its error', async () => {
    const failure = new Error('client went away');
    const body = source(2 * S3_PART_BYTES + CHUNK, failure);
    emitted = body.emitted;
    await expect(storage.put('kbdoc-cut', body.stream)).rejects.toBe(failure);
    expect(commands()).toContain('UploadPartCommand');
    expect(commands()).not.toContain('CompleteMultipartUploadCommand');
    expect(commands().at(-1)).toBe('AbortMultipartUploadCommand');
    expect(await storage.get('kbdoc-cut')).toBeNull();
    expect(await s3.keys()).not.toContain('kbdoc-cut');
    expect(await s3.unfinishedUploads()).toEqual([]);
  });
});
