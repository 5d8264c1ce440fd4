import type { Readable } from 'node:stream';
import {
  BadRequestException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';

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

/** Room for multipart framing and a few form fields on top of the file itself. */
const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(`The CSV file is larger than the ${maxBytes}-byte upload limit`);

/** Form fields sent before the file part; a repeated field (callingNumbers) gives an array. */
export type UploadFields = Record<string, string | string[]>;

/** What a handler gets besides the file. */
export interface UploadForm {
  /** The form fields sent before the file part (create-batch sends its scalar fields first). */
  fields: UploadFields;
  /**
   * Settles once the whole request body has been read: resolves with the names of the fields
   * sent after the file part, rejects when the body turns out malformed. A handler that must
   * not commit a half-read request awaits it before committing.
   */
  ended: Promise<string[]>;
}

export interface CsvUploadHandlers<T> {
  /** Gets the CSV as it arrives. */
  file: (file: Readable, form: UploadForm) => Promise<T>;
  /** Called when the body had no file part; without it such a request answers 400. */
  withoutFile?: (fields: UploadFields) => Promise<T>;
}

/**
 * Streams the `file` part of a multipart/form-data request into a handler as it arrives: the
 * upload is never held in memory or on disk. The file is capped at `maxBytes` (413); a part
 * that is not a CSV answers 415; a body without a file part answers 400 unless `withoutFile`
 * handles it. On any failure the rest of the request is drained, so the client still reads the
 * error.
 */
export function streamCsvUpload<T>(
  request: Request,
  maxBytes: number,
  handlers: CsvUploadHandlers<T>,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (declared > maxBytes + MULTIPART_ALLOWANCE_BYTES) return Promise.reject(tooLarge(maxBytes));
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // busboy signals 'limit' on reaching fileSize: one byte more lets a file of exactly maxBytes in.
        limits: { files: 1, fileSize: maxBytes + 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
      });
    } catch {
      reject(new BadRequestException('Malformed multipart/form-data request (no boundary)'));
      return;
    }
    let settled = false;
    let fileSeen = false;
    const fields: UploadFields = {};
    const lateFields: string[] = [];
    let endBody: (late: string[]) => void = () => undefined;
    let breakBody: (error: Error) => void = () => undefined;
    const ended = new Promise<string[]>((resolve, reject) => {
      endBody = resolve;
      breakBody = reject;
    });
    ended.catch(() => undefined); // only handlers that commit await it
    parser.on('field', (name, value) => {
      if (fileSeen) {
        lateFields.push(name);
        return;
      }
      const previous = fields[name];
      fields[name] = previous === undefined ? value : [previous, value].flat();
    });
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      breakBody(error instanceof Error ? error : new Error(String(error)));
      request.unpipe(parser);
      request.resume();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const settle = (handled: Promise<T>, onError: () => void = () => undefined): void => {
      handled.then(
        (value) => {
          settled = true;
          resolve(value);
        },
        (error: unknown) => {
          onError();
          fail(error);
        },
      );
    };
    parser.on('file', (name, file, info) => {
      if (name !== CSV_FILE_FIELD || fileSeen) {
        file.resume();
        return;
      }
      fileSeen = true;
      if (!CSV_MEDIA_TYPES.has(info.mimeType.toLowerCase())) {
        file.resume();
        fail(
          new UnsupportedMediaTypeException(
            `The ${CSV_FILE_FIELD} field must be a CSV (text/csv), not ${info.mimeType}`,
          ),
        );
        return;
      }
      // busboy ends a truncated file normally; an error makes the import fail instead. The
      // import sees that error through its own pipeline, possibly after it was emitted.
      file.on('error', () => undefined);
      file.on('limit', () => file.destroy(tooLarge(maxBytes)));
      settle(handlers.file(file, { fields, ended }), () => file.resume());
    });
    parser.on('error', () => fail(new BadRequestException('Malformed multipart/form-data body')));
    parser.on('close', () => {
      endBody(lateFields);
      if (fileSeen || settled) return;
      if (handlers.withoutFile) settle(handlers.withoutFile(fields));
      else {
        fail(
          new BadRequestException(
            `The request needs a CSV file in a field named ${CSV_FILE_FIELD}`,
          ),
        );
      }
    });
    request.pipe(parser);
  });
}
