import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptErrorClass } from './webhook-deliveries.schema';

/** The whole attempt (connect, TLS, request, response head and body) must end within this. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/**
 * Keep-alive connections per origin. Each is a TLS handshake for both sides, and a receiver
 * should not see hundreds of sockets from one sender; requests beyond it wait for a free one.
 */
const MAX_SOCKETS_PER_ORIGIN = 64;
/** At most this much of a response body is read (and kept in the log). */
export const RESPONSE_BODY_MAX_BYTES = 20 * 1024;

export interface OutgoingDelivery {
  /** Parsed once, by the shape check that precedes every attempt. */
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** Called when the request gets its connection (after any wait for a free socket). */
  onConnected?: () => void;
}

export type AttemptResult =
  | {
      kind: 'response';
      status: number;
      body: string;
      retryAfter: string | undefined;
      durationMs: number;
    }
  | { kind: 'error'; errorClass: Exclude<AttemptErrorClass, 'http_status'>; durationMs: number };

class AttemptTimeoutError extends Error {
  readonly code = 'ERR_ATTEMPT_TIMEOUT';
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** What kind of failure an error of the HTTPS client is, for the delivery log. */
export function classifyAttemptError(error: unknown): Exclude<AttemptErrorClass, 'http_status'> {
  const raw = (error as { code?: unknown } | undefined)?.code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'ERR_SSRF_BLOCKED') return 'ssrf_blocked';
  if (code === 'ERR_ATTEMPT_TIMEOUT' || code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns';
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return 'tls';
  }
  return 'connect';
}

/**
 * Sends one delivery attempt over HTTPS through a keep-alive agent whose `lookup` is the SSRF
 * guard's, so every new connection resolves and checks its address at connect time. Redirects
 * are never followed (a 3xx is just a status). Never throws: failures come back classified.
 */
export class DeliverySender {
  private readonly agent: Agent;

  constructor(lookup: LookupFunction) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_ORIGIN,
      lookup,
      timeout: ATTEMPT_TIMEOUT_MS,
    });
  }

  send(delivery: OutgoingDelivery): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const fail = (error: unknown) =>
        finish({ kind: 'error', errorClass: classifyAttemptError(error), durationMs: elapsed() });
      const req = request(
        delivery.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            ...delivery.headers,
            'content-length': String(Buffer.byteLength(delivery.body)),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            const status = res.statusCode ?? 0;
            // Only failures are retried; a success's headers are never read (node builds them lazily).
            const retryAfter: string | undefined =
              status >= 200 && status < 300 ? undefined : res.headers['retry-after'];
            finish({
              kind: 'response',
              status,
              body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_MAX_BYTES).toString('utf8'),
              retryAfter,
              durationMs: elapsed(),
            });
          };
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            // Enough: the rest is not read (the socket is dropped rather than drained).
            if (size >= RESPONSE_BODY_MAX_BYTES) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', done);
        },
      );
      const timer = setTimeout(
        () => req.destroy(new AttemptTimeoutError('attempt timed out')),
        ATTEMPT_TIMEOUT_MS,
      );
      req.on('error', fail);
      if (delivery.onConnected) req.once('socket', delivery.onConnected);
      req.end(delivery.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
