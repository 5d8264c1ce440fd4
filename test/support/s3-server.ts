import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/config';
import { createS3Client } from '../../src/storage/s3-object-storage';

/** s3rver's fixed credentials (it checks request signatures against them). */
const ACCESS_KEY = 'S3RVER';

/** Where s3rver keeps the parts of unfinished multipart uploads, inside a bucket's folder. */
const UPLOADS_DIR = '._S3rver_uploads';

export interface S3TestServer {
  /** The bucket's settings, as loadConfig would read them from `env`. */
  config: S3StorageConfig;
  /** STORAGE_S3_* for startTestApp. */
  env: Record<string, string>;
  /** Keys of the objects in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  unfinishedUploads(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver: the S3 REST API over a directory) on 127.0.0.1 with one
 * empty bucket, in a temporary directory removed by close().
 */
export async function startS3Server(bucket = 'switchboard-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'sb-s3rver-'));
  // Port 0: the OS picks a free port while binding, so no other process can take it between.
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(abortMultipartUpload(join(directory, bucket, UPLOADS_DIR)));
  const { port } = await server.run();
  const config: S3StorageConfig = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    forcePathStyle: true,
  };
  const client = createS3Client(config);
  return {
    config,
    env: {
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: config.endpoint!,
      STORAGE_S3_ACCESS_KEY_ID: ACCESS_KEY,
      STORAGE_S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
    },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async unfinishedUploads() {
      return readdir(join(directory, bucket, UPLOADS_DIR)).catch(() => []);
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * AbortMultipartUpload, which s3rver 3.7 lacks (it answers 405): removes the upload's parts as
 * S3 does, so tests can see that an abandoned upload leaves nothing on the server.
 */
function abortMultipartUpload(uploadsDir: string) {
  return async (
    context: { method: string; query: Record<string, unknown>; status: number },
    next: () => Promise<void>,
  ) => {
    const uploadId = context.query.uploadId;
    if (context.method !== 'DELETE' || typeof uploadId !== 'string') return next();
    if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) {
      context.status = 400;
      return;
    }
    await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    context.status = 204;
  };
}
