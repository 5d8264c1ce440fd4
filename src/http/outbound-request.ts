import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Aborting it ends the request, or the body still being read, with the signal's reason. */
  signal?: AbortSignal;
}

/** An answer whose body has not been read yet: read it, iterate it, or discard it. */
export interface OutboundResponse {
  status: number;
  ok: boolean;
  header(name: string): string | undefined;
  /** The body as it arrives, chunk by chunk. */
  body: AsyncIterable<Buffer>;
  text(): Promise<string>;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json(): Promise<unknown>;
  /** Drops the body unread (and the connection, when it is still arriving). */
  discard(): void;
}

/**
 * One HTTP(S) request to a service we call (speech, chat model, telephony provider), over Node's
 * own client with its keep-alive agents. Not fetch: on a live call each turn makes several of
 * these, and fetch's web streams, tees and signals cost about three times the CPU and left
 * objects that outlived the young generation, lengthening every scavenge that held up the calls'
 * audio. Redirects are never followed; the response resolves once its status line and headers
 * are in.
 */
export function sendRequest(url: string, request: OutboundRequest): Promise<OutboundResponse> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(request.body));
  }
  return new Promise((resolve, reject) => {
    const { signal } = request;
    // An AbortError, or a TimeoutError from AbortSignal.timeout: our callers abort without a reason.
    const reason = () => signal?.reason as Error;
    if (signal?.aborted) return reject(reason());
    let incoming: IncomingMessage | undefined;
    const outgoing = send(target, { method: request.method, headers }, (response) => {
      incoming = response;
      resolve(toResponse(response));
    });
    outgoing.on('error', reject);
    if (signal) {
      // Handled here rather than given to Node, whose own handling could raise the abort as an
      // error no listener was left to take once the body had arrived unread. Like fetch, an abort
      // ends the request or the body being read with the signal's reason.
      const onAbort = () => {
        outgoing.destroy(reason());
        incoming?.destroy(reason());
      };
      const forget = () => signal.removeEventListener('abort', onAbort);
      signal.addEventListener('abort', onAbort, { once: true });
      outgoing.on('close', () => {
        if (incoming && !incoming.destroyed && !incoming.readableEnded)
          incoming.once('close', forget);
        else forget();
      });
    }
    outgoing.end(request.body);
  });
}

function toResponse(incoming: IncomingMessage): OutboundResponse {
  // Reading the body reports its errors; one after the reader stopped (the request aborted once
  // the caller has what it wanted) has no one to tell and must not take the process down.
  incoming.on('error', () => undefined);
  const status = incoming.statusCode ?? 0;
  const text = async (): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  return {
    status,
    ok: status >= 200 && status < 300,
    header: (name) => {
      const value = incoming.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: incoming,
    text,
    json: async () => {
      const body = await text();
      try {
        return body ? (JSON.parse(body) as unknown) : undefined;
      } catch {
        return undefined;
      }
    },
    discard: () => {
      if (incoming.complete) incoming.resume();
      else incoming.destroy();
    },
  };
}
