import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request } from 'express';

/** How long a client answered mid-body may keep sending after the answer before it is cut. */
const LINGER_MS = 2_000;

const closing = new WeakSet<Socket>();

/**
 * For a request answered before its body has arrived (refused at the door, an upload over its
 * limit): the answer says `Connection: close`, and the connection is closed in stages (RFC 9112
 * §9.6). The answer and a FIN go out; what the client still sends is read and discarded until
 * it closes its side (it stops sending when it sees the FIN) or LINGER_MS pass; then the socket
 * is destroyed.
 *
 * Node's server would destroy the socket as soon as a `Connection: close` answer is flushed
 * (`socket.destroySoon()`). With the client's bytes still unread, the kernel then sends a reset,
 * and a client that is still writing fails on its next write and never reads the answer that
 * is waiting in its buffer.
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
  const socket = request.socket;
  if (closing.has(socket)) return;
  closing.add(socket);
  // Node's server calls this once the `Connection: close` answer is written.
  socket.destroySoon = () => lingerThenClose(socket, request);
}

function lingerThenClose(socket: Socket, request: IncomingMessage): void {
  const destroyOnceFlushed = () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const cut = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(cut));
  // The client has closed its side: everything it sent has been read, nothing is left to reset.
  if (socket.readableEnded) destroyOnceFlushed();
  else socket.once('end', destroyOnceFlushed);
  socket.end();
  // Read on into nothing: the rest of the request's body (its reader has stopped), then the
  // socket itself, which stays paused when a body was cut at the door.
  request.resume();
  socket.resume();
}

/**
 * For an upload answered before its body has arrived: the connection closes after the answer,
 * so the client stops sending instead of the server reading (and discarding) the rest.
 */
export function closeIfUnfinished(request: Request): void {
  if (request.res && !request.complete) closeAfterAnswer(request, request.res);
}
