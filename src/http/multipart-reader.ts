import { BadRequestException } from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import { closeIfUnfinished } from './close-after-answer';

/** A busboy parser over a request, with the one way an upload stops on its first failure. */
export interface MultipartReader {
  parser: busboy.Busboy;
  /** True once fail() has been called. */
  readonly failed: boolean;
  /**
   * The first call stops reading the request (its connection closes after the answer, see
   * closeIfUnfinished) and hands the error to the upload's onFail; later calls do nothing.
   */
  fail: (error: unknown) => void;
  /** Pipes the request into the parser, once the upload's listeners are on it. */
  start: () => void;
}

/**
 * Opens a multipart/form-data request for reading. A request without a boundary fails at once
 * (onFail, 400; undefined is returned); a body busboy cannot parse (cut short, without its closing
 * boundary, another boundary than the header's) or a client gone mid-body fails with 400 later.
 */
export function openMultipart(
  request: Request,
  config: Omit<busboy.BusboyConfig, 'headers'>,
  onFail: (error: Error) => void,
): MultipartReader | undefined {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ ...config, headers: request.headers });
  } catch {
    closeIfUnfinished(request);
    onFail(new BadRequestException('Malformed multipart/form-data request (no boundary)'));
    return undefined;
  }
  let failed = false;
  const reader: MultipartReader = {
    parser,
    get failed() {
      return failed;
    },
    fail: (error) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      closeIfUnfinished(request);
      onFail(error instanceof Error ? error : new Error(String(error)));
    },
    start: () => request.pipe(parser),
  };
  const malformed = () =>
    reader.fail(new BadRequestException('Malformed multipart/form-data body'));
  parser.on('error', malformed);
  // A part's 'error' with no listener ends the process. busboy errors the open file part when the
  // body ends early ('Unexpected end of form'), whether the upload reads the part yet (it may be
  // awaiting a check first), ignores it (another field) or has stopped: every part is heard from
  // the moment it is handed out, before the upload's own 'file' listener runs.
  parser.prependListener('file', (_name, part) => part.on('error', malformed));
  // A client gone mid-body: nothing will end or close the parser.
  request.on('close', () => {
    if (!request.complete) reader.fail(new BadRequestException('The upload was interrupted'));
  });
  return reader;
}
