import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { OnApplicationShutdown } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { S3StorageConfig } from '../config';
import { assertStorageKey, ObjectStorage } from './object-storage';

/** Bytes of one multipart part: S3's minimum, so an upload holds little in memory. */
export const S3_PART_BYTES = 5 * 1024 * 1024;
/**
 * Parts of one upload read or sent at once (while one is sent, the next is read from the
 * client): an upload holds at most this many parts in memory, whatever the file's size.
 */
export const S3_PARTS_IN_FLIGHT = 2;

/** A client for the configured bucket's store; secrets stay inside it (the SDK logs nothing). */
export function createS3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Newer SDKs add CRC32 checksums to every upload, which not every S3-compatible store
    // accepts; AWS itself does, so only a custom endpoint sends them just where S3 requires.
    ...(config.endpoint !== undefined && {
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
    // Without these a store that stops answering would hold requests and jobs indefinitely.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

/**
 * Objects in one S3 (or S3-compatible) bucket, under their keys as they are. An upload streams:
 * a body shorter than one part is sent in a single PUT; a longer one as a multipart upload,
 * part by part, which S3 shows as an object only once completed. A failed upload (the body
 * erroring, e.g. over the limit) aborts its multipart upload, so nothing is left under the key.
 */
export class S3ObjectStorage extends ObjectStorage implements OnApplicationShutdown {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {
    super();
  }

  async put(key: string, body: Readable): Promise<void> {
    assertStorageKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: S3_PART_BYTES,
      queueSize: S3_PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The body's own error (e.g. over the limit) is the cause, even when a store then fails
      // to abort the multipart upload. A failure on the store's side leaves the body unread:
      // release whatever feeds it.
      const cause = body.errored ?? error;
      body.destroy();
      throw cause;
    }
  }

  async get(key: string): Promise<Readable | null> {
    assertStorageKey(key);
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!(Body instanceof Readable)) throw new Error('The object store sent no body stream');
      return Body;
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    // S3 answers a delete of an absent key with success too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}

/** The key is absent (a missing bucket stays an error: that is a configuration problem). */
function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  return (
    error instanceof S3ServiceException &&
    error.$metadata.httpStatusCode === 404 &&
    error.name !== 'NoSuchBucket'
  );
}
