import type { IncomingMessage, ServerResponse } from 'node:http';
import { PayloadTooLargeException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config';
import { closeAfterAnswer } from './close-after-answer';

/** Room for multipart framing and the form fields sent beside an uploaded file. */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/** The largest body a request may send: the upload limit for multipart forms, else the JSON limit. */
export function bodyLimitOf(request: IncomingMessage, config: AppConfig): number {
  const type = request.headers['content-type']?.trim().toLowerCase() ?? '';
  return type.startsWith('multipart/form-data')
    ? config.storage.uploadMaxBytes + MULTIPART_ALLOWANCE_BYTES
    : config.http.jsonBodyLimitBytes;
}

/** True when the request declares a Content-Length over its limit. */
export function declaresTooLarge(request: IncomingMessage, config: AppConfig): boolean {
  const declared = request.headers['content-length'];
  return declared !== undefined && Number(declared) > bodyLimitOf(request, config);
}

/**
 * Refuses bodies over the limit at the door, ahead of the body parsers (which would read, or
 * drain, the whole body before answering). A Content-Length over the limit gets its 413 before
 * a byte of the body is read; a chunked body is cut where it passes the limit: the reader (a
 * body parser) sees the chunk over the limit, answers 413, and the rest is never read. Either way
 * the answer says `Connection: close` and the connection closes (closeAfterAnswer), so the
 * client stops sending.
 */
export function bodySizeLimit(config: AppConfig) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (declaresTooLarge(request, config)) {
      closeAfterAnswer(request, response);
      // The body parsers' wording for the same refusal.
      next(new PayloadTooLargeException('Request body too large'));
      return;
    }
    if (request.headers['content-length'] === undefined && request.headers['transfer-encoding']) {
      cutChunkedBody(request, response, bodyLimitOf(request, config));
    }
    next();
  };
}

/**
 * Counts the body as the HTTP parser hands it over (`push` is where it does), so nothing is
 * consumed early. Past `limit` the chunk still reaches the reader (a body parser answers 413 on
 * it), then the body ends there, so the reader stops waiting for the rest. From there the socket
 * is not read until the answer is out (push answers `false`, which pauses it, so the client
 * stalls instead of being read at full speed); once it is, closeAfterAnswer reads what still
 * comes into nothing while the connection closes.
 */
function cutChunkedBody(request: IncomingMessage, response: ServerResponse, limit: number): void {
  const push = request.push.bind(request);
  let received = 0;
  let cut = false;
  request.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (cut) return response.writableFinished;
    if (chunk === null || chunk === undefined) return push(chunk, encoding);
    received += (chunk as Buffer).length;
    if (received <= limit) return push(chunk, encoding);
    cut = true;
    closeAfterAnswer(request, response);
    // The body ends here for its readers. Node takes a request that ends before its message is
    // complete for an aborted one and destroys the socket as its end is read, which could be
    // before the answer is written.
    request.complete = true;
    push(chunk, encoding);
    push(null);
    return response.writableFinished;
  };
}
