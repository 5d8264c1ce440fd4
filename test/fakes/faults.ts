import type { ServerResponse } from 'node:http';

/**
 * What a fake service does to one request (HTTP) or one connection (WebSocket) instead of
 * answering it well. The speech fakes and the chat fake share these, so a test or the sandbox
 * switches the same outage on whichever service it plays.
 */
export type Fault =
  /** An error status (a WebSocket upgrade refused with it), with Retry-After when given. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** The answer as usual, this much later (WebSocket: each answer, Finalize result or audio). */
  | { kind: 'latency'; ms: number }
  /** No answer at all; the connection stays open until the client gives up or the fake closes. */
  | { kind: 'hang' }
  /**
   * The connection dropped without a word (no close frame, no end of body) after `afterBytes`
   * of the answer (HTTP, ElevenLabs audio) or of the caller audio received (Deepgram).
   */
  | { kind: 'cut'; afterBytes: number }
  /** WebSocket only: the service closes the socket (code 1011 unless given) after `afterBytes`. */
  | { kind: 'close'; afterBytes: number; code?: number };

/** The faults queued for a fake's next requests or connections, and a standing one (an outage). */
export class Faults {
  private readonly queue: Fault[] = [];
  private standing: Fault | undefined;
  private draw: (() => Fault | undefined) | undefined;
  /** Requests or connections that met a fault. */
  met = 0;

  /** The next `count` requests (after those already queued) meet `fault`. */
  next(fault: Fault, count = 1): this {
    for (let i = 0; i < count; i++) this.queue.push(fault);
    return this;
  }

  /** Every request meets `fault` until `clear` (once the queue is spent). */
  always(fault: Fault): this {
    this.standing = fault;
    return this;
  }

  /** Every request draws its fault (or none) from `draw`: a share faulted at random (chaos). */
  drawnBy(draw: () => Fault | undefined): this {
    this.draw = draw;
    return this;
  }

  clear(): void {
    this.queue.length = 0;
    this.standing = undefined;
    this.draw = undefined;
  }

  /** The fault this request or connection meets, if any. */
  take(): Fault | undefined {
    const fault = this.queue.shift() ?? this.standing ?? this.draw?.();
    if (fault) this.met += 1;
    return fault;
  }
}

/**
 * Plays an HTTP fault that happens before any answer: an error status with the service's error
 * body, a hang, or a delay. True when the request is dealt with (nothing more to send).
 */
export async function playHttpFault(
  fault: Fault | undefined,
  res: ServerResponse,
  errorBody: (status: number) => unknown,
): Promise<boolean> {
  if (!fault) return false;
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfterSeconds !== undefined)
        headers['retry-after'] = String(fault.retryAfterSeconds);
      res.writeHead(fault.status, headers).end(JSON.stringify(errorBody(fault.status)));
      return true;
    }
    case 'hang':
      return true;
    case 'latency':
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return false;
    case 'cut':
    case 'close':
      return false;
  }
}

/**
 * Writes `body` as a 200 answer cut after `afterBytes` (the connection destroyed, the body never
 * ended): what the client sees when the service dies mid-answer.
 */
export function cutAnswer(
  res: ServerResponse,
  contentType: string,
  body: Buffer,
  afterBytes: number,
): void {
  res.writeHead(200, { 'content-type': contentType });
  res.write(body.subarray(0, afterBytes), () => res.destroy());
}

/** A fault's cut point, when it is a cut or a close (`Infinity` otherwise). */
export const cutAt = (fault: Fault | undefined): number =>
  fault?.kind === 'cut' || fault?.kind === 'close' ? fault.afterBytes : Infinity;
