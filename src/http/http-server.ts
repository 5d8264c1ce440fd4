import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { AppConfig } from '../config';
import { declaresTooLarge } from './body-size-limit';

/**
 * A client gets this long to send its request headers (a new connection, or the next request
 * on a kept-alive one); then it gets 408 and is closed. Headers fit in a packet or two: this is
 * room for retransmits on a bad link, and what a slow-loris client can hold a socket for.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How often Node looks for connections past those timeouts (its default is 30 s). */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** An idle kept-alive connection closes after this (Node's default, stated). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The slowest upload we wait for: 512 kbit/s, a poor mobile uplink. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 64 * 1024;

/**
 * Timeouts of the HTTP server. The whole request must arrive within `requestTimeout`: long
 * enough for the largest upload (UPLOAD_MAX_BYTES) at the slowest link we serve (20 MiB: 330 s),
 * and never under a minute.
 */
export function httpServerTimeouts(
  config: AppConfig,
): Required<
  Pick<
    ServerOptions,
    'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'connectionsCheckingInterval'
  >
> {
  const uploadMs =
    Math.ceil(config.storage.uploadMaxBytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000;
  return {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: Math.max(60_000, HEADERS_TIMEOUT_MS + uploadMs),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

/**
 * Nest's Express adapter on a server we create: `connectionsCheckingInterval` can only be given
 * to `http.createServer`. A client that asks `Expect: 100-continue` for a body over the limit
 * is not told to continue: it gets its 413 (bodySizeLimit) without sending the body.
 */
export class SwitchboardHttpAdapter extends ExpressAdapter {
  constructor(private readonly config: AppConfig) {
    super();
  }

  override initHttpServer(): void {
    const server = createServer(
      httpServerTimeouts(this.config),
      this.getInstance<RequestListener>(),
    );
    server.on('checkContinue', (request, response) => {
      if (!declaresTooLarge(request, this.config)) response.writeContinue();
      server.emit('request', request, response);
    });
    this.setHttpServer(server);
  }
}
