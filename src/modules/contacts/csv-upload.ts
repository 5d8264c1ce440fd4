import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import { detach } from '../../common/detach';
import { addFormField, emptyFormFields, type UploadFields } from '../../common/form-fields';
import { openMultipart } from '../../http/multipart-reader';

const logger = new Logger('CsvUpload');

/** The multipart field that carries the CSV. */
export const CSV_FILE_FIELD = 'file';

/**
 * Content types browsers and tools send for a .csv file: Windows browsers say
 * application/vnd.ms-excel, curl says application/octet-stream for an unknown extension.
 */
export const CSV_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'text/csv',
  'application/csv',
  'text/x-csv',
  'application/x-csv',
  'text/comma-separated-values',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
]);

/** The kinds of file an upload takes: CSV unless the route says otherwise. */
export interface AcceptedFiles {
  mediaTypes: ReadonlySet<string>;
  /** For the 415 and 413 answers: "a CSV (text/csv)". */
  description: string;
}

const CSV_FILES: AcceptedFiles = { mediaTypes: CSV_MEDIA_TYPES, description: 'a CSV (text/csv)' };

const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(`The file is larger than the ${maxBytes}-byte upload limit`);

/** The CSV of an upload, received whole into a temporary file. */
export interface SpooledCsv {
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  bytes: number;
  /** The part's declared Content-Type, lower case, and its file name ('' when none). */
  mediaType: string;
  fileName: string;
  /** A new stream of the file's bytes. */
  open(): Readable;
}

/** A multipart request read to its end. */
export interface CsvUpload {
  /**
   * The form fields sent before the file part (create-batch sends its scalar fields first); a
   * repeated field (callingNumbers) gives an array.
   */
  fields: UploadFields;
  /** Names of the fields sent after the file part. */
  lateFields: string[];
  /** Absent when the body had no file part. */
  file?: SpooledCsv;
}

export interface CsvUploadOptions {
  /**
   * Runs when the file part begins, with the fields sent before it: a request it rejects fails
   * before the file is read.
   */
  beforeFile?: (fields: UploadFields) => Promise<void>;
  /** The media types the file part may declare (default: CSV_MEDIA_TYPES); others answer 415. */
  accept?: AcceptedFiles;
}

/**
 * Reads a multipart/form-data request whole, its `file` part into a temporary file (hashed as it
 * is written, capped at `maxBytes`: 413), then runs `handle` and removes the file. Nothing is
 * asked of the database while the client uploads, which matters where the database is one
 * connection (embedded PGlite) and a client uploads slowly. A file part that is not a CSV
 * answers 415, a malformed body 400. A request that fails before its body has arrived is
 * answered at once and its connection closed, rather than read to the end.
 */
export async function withCsvUpload<T>(
  request: Request,
  maxBytes: number,
  options: CsvUploadOptions,
  handle: (upload: CsvUpload) => Promise<T>,
): Promise<T> {
  const path = join(tmpdir(), `switchboard-upload-${randomUUID()}.csv`);
  const receiving = receive(request, maxBytes, path, options);
  let upload: CsvUpload;
  try {
    upload = await receiving.upload;
  } catch (error) {
    // Answered now, whatever the file part is still doing (a write stream closing on a busy
    // thread pool); the temporary file goes once it is closed.
    detach(
      receiving.fileClosed().then(() => rm(path, { force: true })),
      { what: 'Removing an upload temporary file', logger },
    );
    throw error;
  }
  try {
    return await handle(upload);
  } finally {
    await rm(path, { force: true });
  }
}

interface Receiving {
  upload: Promise<CsvUpload>;
  /** Settles once the temporary file, if one was started, is closed. */
  fileClosed(): Promise<void>;
}

function receive(
  request: Request,
  maxBytes: number,
  path: string,
  options: CsvUploadOptions,
): Receiving {
  let spooled: Promise<SpooledCsv> | undefined;
  const fileClosed = () =>
    (spooled ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  const upload = new Promise<CsvUpload>((resolve, reject) => {
    let part: Readable | undefined;
    const reader = openMultipart(
      request,
      // busboy signals 'limit' on reaching fileSize: one byte more lets a file of exactly maxBytes in.
      { limits: { files: 1, fileSize: maxBytes + 1, fields: 50, fieldSize: 64 * 1024, parts: 60 } },
      (error) => {
        part?.destroy();
        reject(error);
      },
    );
    if (!reader) return;
    const { parser, fail } = reader;
    const fields = emptyFormFields();
    const lateFields: string[] = [];
    parser.on('field', (name, value) => {
      if (part) {
        lateFields.push(name);
        return;
      }
      addFormField(fields, name, value);
    });
    parser.on('file', (name, file, info) => {
      if (name !== CSV_FILE_FIELD || part || reader.failed) {
        file.resume();
        return;
      }
      part = file;
      const accepted = options.accept ?? CSV_FILES;
      const mediaType = info.mimeType.toLowerCase();
      if (!accepted.mediaTypes.has(mediaType)) {
        fail(
          new UnsupportedMediaTypeException(
            `The ${CSV_FILE_FIELD} field must be ${accepted.description}, not ${info.mimeType}`,
          ),
        );
        return;
      }
      file.on('limit', () => fail(tooLarge(maxBytes)));
      const declared = { mediaType, fileName: info.filename ?? '' };
      spooled = spool(file, path, declared, () => options.beforeFile?.({ ...fields }));
      spooled.catch(fail);
    });
    parser.on('close', () => {
      if (reader.failed) return;
      if (!spooled) {
        resolve({ fields, lateFields });
        return;
      }
      spooled.then((file) => {
        if (!reader.failed) resolve({ fields, lateFields, file });
      }, fail);
    });
    reader.start();
  });
  return { upload, fileClosed };
}

/** Writes the file part to `path` once `before` has passed, hashing it on the way. */
async function spool(
  file: Readable,
  path: string,
  declared: Pick<SpooledCsv, 'mediaType' | 'fileName'>,
  before: () => Promise<void> | undefined,
): Promise<SpooledCsv> {
  await before();
  // Failed meanwhile (over the limit): pipeline() would wait forever on a destroyed part.
  if (file.destroyed) throw new Error('Upload failed before its file was read');
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(file, tap, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  return {
    sha256: hash.digest('hex'),
    bytes,
    ...declared,
    open: () => createReadStream(path),
  };
}
