import { type Readable, Transform } from 'node:stream';
import { BadRequestException, Logger, PayloadTooLargeException } from '@nestjs/common';
import type { Request } from 'express';
import { detach } from '../../common/detach';
import { openMultipart } from '../../http/multipart-reader';
import { deleteQuietly, type ObjectStorage } from '../../storage/object-storage';
import { addFormField, emptyFormFields, type UploadFields } from '../../common/form-fields';
import { TYPE_SNIFF_BYTES } from './document-type';
import { sanitizeFileName } from './file-name';

const logger = new Logger('DocumentUpload');

/** The multipart field of documents, repeatable. */
export const DOCUMENTS_FIELD = 'files';

/** Documents one request may upload. */
export const MAX_FILES_PER_REQUEST = 20;

/** One file of a request, already in storage. */
export interface StoredUpload {
  key: string;
  /** Sanitized display name. */
  fileName: string;
  bytes: number;
  /** The first TYPE_SNIFF_BYTES of the file (all of it when shorter). */
  head: Buffer;
}

export interface DocumentsForm {
  fields: UploadFields;
  files: StoredUpload[];
}

export interface DocumentUploadOptions {
  /** Limit of the files of one request together (UPLOAD_MAX_BYTES). */
  maxBytes: number;
  storage: ObjectStorage;
  newKey: () => string;
}

const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(
    `The files are larger than the ${maxBytes}-byte upload limit (UPLOAD_MAX_BYTES)`,
  );

/**
 * Reads a multipart/form-data request to its end, streaming each `files` part straight into
 * storage under a new key while counting its bytes against `maxBytes` (all files together) and
 * keeping its first bytes for type detection. Nothing touches the database meanwhile. On any
 * failure (over the limit: 413; malformed body, a file in another field, too many parts: 400;
 * the client gone) every object this request stored is deleted before the promise rejects.
 * On success the caller owns the stored objects (and deletes them if it fails later).
 */
export function receiveDocuments(
  request: Request,
  options: DocumentUploadOptions,
): Promise<DocumentsForm> {
  const { maxBytes, storage } = options;
  return new Promise<DocumentsForm>((resolve, reject) => {
    const files: StoredUpload[] = [];
    const writes: Promise<void>[] = [];
    const parts = new Set<Readable>();
    const reader = openMultipart(
      request,
      {
        defParamCharset: 'utf8',
        limits: {
          files: MAX_FILES_PER_REQUEST,
          fileSize: maxBytes + 1,
          fields: 20,
          fieldSize: 64 * 1024,
          parts: MAX_FILES_PER_REQUEST + 20,
        },
      },
      (reason) => {
        // With the error, so that it reaches the storage write (part 'error' → counter): a part
        // merely destroyed never ends its write, which would then wait forever (a local partial
        // file, an S3 multipart upload never aborted) and this promise with it.
        for (const part of parts) part.destroy(reason);
        detach(
          Promise.allSettled(writes)
            .then(() =>
              deleteQuietly(
                storage,
                files.map((file) => file.key),
              ),
            )
            .finally(() => reject(reason)),
          { what: 'Removing the objects of a failed upload', logger },
        );
      },
    );
    if (!reader) return;
    const { parser, fail } = reader;
    const fields = emptyFormFields();
    let total = 0;
    const refuse = (message: string) => () => fail(new BadRequestException(message));

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        fail(new BadRequestException(`The form field ${name} is too long`));
        return;
      }
      addFormField(fields, name, value);
    });
    parser.on('file', (name, part, info) => {
      if (reader.failed) {
        part.resume();
        return;
      }
      if (name !== DOCUMENTS_FIELD) {
        part.resume();
        fail(
          new BadRequestException(`Send documents in the ${DOCUMENTS_FIELD} field, not ${name}`),
        );
        return;
      }
      const file: StoredUpload = {
        key: options.newKey(),
        fileName: sanitizeFileName(info.filename),
        bytes: 0,
        head: Buffer.alloc(0),
      };
      files.push(file);
      parts.add(part);
      const heads: Buffer[] = [];
      let headBytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          total += chunk.length;
          file.bytes += chunk.length;
          if (total > maxBytes) {
            done(tooLarge(maxBytes));
            return;
          }
          if (headBytes < TYPE_SNIFF_BYTES) {
            heads.push(chunk.subarray(0, TYPE_SNIFF_BYTES - headBytes));
            headBytes += Math.min(chunk.length, TYPE_SNIFF_BYTES - headBytes);
          }
          done(null, chunk);
        },
      });
      part.on('error', (error: Error) => counter.destroy(error));
      part.on('limit', () => counter.destroy(tooLarge(maxBytes)));
      const write = storage.put(file.key, part.pipe(counter)).then(() => {
        file.head = Buffer.concat(heads);
        parts.delete(part);
      });
      write.catch(fail);
      writes.push(write);
    });
    parser.on('filesLimit', refuse(`At most ${MAX_FILES_PER_REQUEST} files per request`));
    parser.on('fieldsLimit', refuse('Too many form fields'));
    parser.on('partsLimit', refuse('Too many form parts'));
    parser.on('close', () => {
      if (reader.failed) return;
      Promise.all(writes).then(() => {
        if (!reader.failed) resolve({ fields, files });
      }, fail);
    });
    reader.start();
  });
}
