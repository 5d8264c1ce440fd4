import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { flood, type Flood } from './flood';
import type { StreamInstructions } from './media-stream-caller';

/** A urlencoded body or query string: a repeated key becomes an array, in order. */
export type FormBody = Record<string, string | string[]>;

/** One request the fake received, exactly as it arrived. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, still percent-encoded. */
  path: string;
  query: FormBody;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** JSON value for `application/json`, a FormBody for urlencoded, otherwise undefined. */
  body: unknown;
  receivedAt: Date;
}

export interface FakeResponse {
  status: number;
  /** Sent as JSON; omitted (empty body) when undefined. */
  body?: unknown;
  /** Sent as they are instead of `body` (a file download); set its content-type in `headers`. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export interface RouteContext {
  req: RecordedRequest;
  params: Record<string, string>;
}

export type RouteHandler = (ctx: RouteContext) => FakeResponse | Promise<FakeResponse>;

/** What a provider's API module gets to register its routes with. */
export type RouteRegistrar = (method: string, template: string, handler: RouteHandler) => void;

/** Narrows a fault to some requests: `path` is a substring or a pattern of the request path. */
export interface FaultMatch {
  method?: string;
  path?: string | RegExp;
  /** Told the parsed body: for APIs that do several things on one path. */
  body?: (body: unknown) => boolean;
}

interface Fault {
  remaining: number;
  status: number;
  retryAfterSeconds?: number;
  match?: FaultMatch;
  /** The error's text in the provider's body (default: the provider's own for the status). */
  message?: string;
  /** Answer 200 with an endless body instead of an error. */
  flood?: boolean;
  /** Never answer (an outage: the client runs into its timeout); closed with the server. */
  stall?: boolean;
  /** Answer as usual, this much later (a slow provider); the handle counts them in flight. */
  delay?: { ms: number; handle: SlowRequests };
}

/** What `delayNext` returns: how many of its slow requests were ever answered at once. */
export interface SlowRequests {
  inFlight: number;
  peak: number;
  answered: number;
}

/** How a callback is signed, for tests of the receiver's rejection paths. */
export interface DeliveryOptions {
  signature?: 'valid' | 'invalid' | 'missing';
  /** Telnyx only: unix seconds to put in `telnyx-timestamp` (default now). */
  timestamp?: number;
  /** Telnyx only: sign with this private key (another account's) instead of the call's account's. */
  signingKey?: KeyObject;
}

/** One HTTP request the fake made to a URL it was given (status callback or answer fetch). */
export interface CallbackDelivery {
  callId: string;
  /** `status` for status callbacks, `answer` for the answer_url / Url document fetch. */
  kind: 'status' | 'answer';
  event: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
  /** What was sent: form parameters (Plivo, Twilio) or the JSON document (Telnyx). */
  payload: unknown;
  /** 0 when the receiver could not be reached (or the callback was lost on purpose). */
  status: number;
  responseBody: string;
  responseContentType?: string;
  error?: string;
  deliveredAt: Date;
  /** The callback fault it went through, if any (`lost` ones never reached the receiver). */
  fault?: 'lost' | 'duplicate' | 'delayed' | 'reordered';
}

/** Narrows a callback fault to some of the callbacks the fake sends (default: status callbacks). */
export interface CallbackMatch {
  /** The provider's event or status word (Twilio `CallStatus`, Telnyx `event_type`…). */
  event?: string | RegExp;
  callId?: string;
  kind?: 'status' | 'answer';
}

interface CallbackFault {
  remaining: number;
  match: CallbackMatch;
  mode: 'lose' | 'duplicate' | 'delay' | 'hold';
  delayMs?: number;
  /** `hold`: sent right after a callback of the same call that matches this. */
  until?: CallbackMatch;
}

type Outgoing = Omit<CallbackDelivery, 'status' | 'responseBody' | 'deliveredAt'>;

/**
 * How an automatically advanced call ends: `completed` rings, answers and hangs up; `busy`,
 * `no-answer` ring first; `failed` fails at once; `hold` is accepted and then never heard of
 * again (no callback: a lost call for the dialer's recovery).
 */
export type AutoOutcome = 'completed' | 'busy' | 'no-answer' | 'failed' | 'hold';

/** An auto-progressed call the fake answered, handed to `HttpFake.conversation`. */
export interface AnsweredCall {
  integration: Integration;
  /** The provider's id of the call (what its media stream's `start` carries). */
  callId: string;
  /** Where the answer told the provider to stream the call's audio, once it has (bounded wait). */
  stream(): Promise<StreamInstructions>;
  /** Whether Switchboard asked the provider to end the call. */
  hangupRequested(): boolean;
}

const STREAM_WAIT_MS = 10_000;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
}

export const newApiId = (): string => randomUUID();
export const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s/]+/i.test(value);
export const appendQuery = (url: string, query: string): string =>
  query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`;
export const randomDigits = (length: number): string => {
  let out = String(1 + (randomBytes(1)[0] % 9));
  while (out.length < length) out += String(randomBytes(1)[0] % 10);
  return out;
};
export const randomAlnum = (length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') =>
  Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');

export function parseForm(text: string): FormBody {
  const out: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

export function encodeForm(params: FormBody): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  return search.toString();
}

/** A body field as a string, from JSON (numbers/booleans stringified) or a form (first value). */
export function field(body: unknown, key: string): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[key];
  if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Every value of a repeated form key (or a JSON array). */
export function fieldList(body: unknown, key: string): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const value = (body as Record<string, unknown>)[key];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return [String(value)];
  return [];
}

export function hasField(body: unknown, key: string): boolean {
  return body !== null && typeof body === 'object' && !Array.isArray(body) && key in body;
}

/** Basic credentials from an Authorization header, or undefined. */
export function basicCredentials(
  headers: IncomingHttpHeaders,
): { user: string; password: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Shared base of the provider fakes: a `node:http` server on 127.0.0.1 with a tiny router,
 * request recording, fault injection and outgoing callback delivery.
 */
export abstract class HttpFake {
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: CallbackDelivery[] = [];
  /** The endless bodies sent for `floodNext`, in order. */
  readonly floods: Flood[] = [];
  /**
   * Auto-progress mode: when set, each placed call is advanced by itself (callbacks included)
   * to the outcome this returns for its destination number (+E.164), right after the placing
   * request was answered. `settled()` waits for the runs started so far.
   */
  autoProgress: ((to: string) => AutoOutcome) | undefined;
  /** Told of each callback once its receiver answered (the sandbox prints them). */
  onDelivery: ((delivery: CallbackDelivery) => void) | undefined;
  /**
   * Auto-progress only: each answered call is handed to this before it ends, and the fake hangs
   * up when it resolves (the sandbox's caller talks on the call's media stream meanwhile). It
   * should not reject: a failure is its own to report; the call then ends all the same.
   */
  conversation: ((call: AnsweredCall) => Promise<void>) | undefined;
  private readonly autoRuns = new Set<Promise<void>>();
  private readonly routes: Route[] = [];
  private readonly faults: Fault[] = [];
  private readonly callbackFaults: CallbackFault[] = [];
  private readonly held: Array<{ delivery: Outgoing; until: CallbackMatch }> = [];
  private server?: Server;
  private url?: string;
  private port = 0;
  private closed = false;

  /** e.g. `http://127.0.0.1:41234`: what Switchboard's `PROVIDER_*_API_URL` is set to. */
  get baseUrl(): string {
    if (!this.url) throw new Error('fake server not started');
    return this.url;
  }

  protected async listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopListening();
  }

  /**
   * Stops listening (open connections are closed): every request is refused before a connection
   * exists (ECONNREFUSED), as from a provider whose front door is down, until
   * `acceptConnections`. Nothing reaches the fake meanwhile, so nothing is recorded.
   */
  refuseConnections(): Promise<void> {
    return this.stopListening();
  }

  /** Listens again on the same port (and base URL) after `refuseConnections` (not after close). */
  async acceptConnections(): Promise<void> {
    if (!this.server && !this.closed) await this.listen();
  }

  private async stopListening(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  /** Requests with this method whose path contains `path` (or matches the pattern). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pathMatches(r.path, path));
  }

  /** The next `count` matching requests answer `status` with the provider's error body. */
  failNext(count: number, status: number, match?: FaultMatch, message?: string): void {
    this.faults.push({ remaining: count, status, match, message });
  }

  /** The next `count` matching requests answer 429 with the provider's body and headers. */
  rateLimitNext(count: number, retryAfterSeconds?: number, match?: FaultMatch): void {
    this.faults.push({ remaining: count, status: 429, retryAfterSeconds, match });
  }

  /** The next `count` matching requests answer 200 with a body that never ends (see `floods`). */
  floodNext(count: number, match?: FaultMatch): void {
    this.faults.push({ remaining: count, status: 200, match, flood: true });
  }

  /** The next `count` matching requests get no answer at all, until the fake closes. */
  stallNext(count: number, match?: FaultMatch): void {
    this.faults.push({ remaining: count, status: 0, match, stall: true });
  }

  /**
   * The next `count` matching requests are answered as usual but `ms` later; the handle tells
   * how many of them were in flight at once (what a client's concurrency limit allows).
   */
  delayNext(count: number, ms: number, match?: FaultMatch): SlowRequests {
    const handle: SlowRequests = { inFlight: 0, peak: 0, answered: 0 };
    this.faults.push({ remaining: count, status: 0, match, delay: { ms, handle } });
    return handle;
  }

  /** The next `count` matching callbacks are never sent (a callback the provider lost). */
  loseCallbacks(count: number, match: CallbackMatch = {}): void {
    this.callbackFaults.push({ remaining: count, match, mode: 'lose' });
  }

  /** The next `count` matching callbacks are sent twice in a row (a provider's retry). */
  duplicateCallbacks(count: number, match: CallbackMatch = {}): void {
    this.callbackFaults.push({ remaining: count, match, mode: 'duplicate' });
  }

  /** The next `count` matching callbacks are sent `ms` later (what follows waits for them). */
  delayCallbacks(count: number, ms: number, match: CallbackMatch = {}): void {
    this.callbackFaults.push({ remaining: count, match, mode: 'delay', delayMs: ms });
  }

  /**
   * Reorders callbacks: the next `count` callbacks matching `hold` are kept back and sent right
   * after the first later callback of the same call that matches `until` (e.g. Telnyx's
   * `call.answered` after its `call.hangup`). The call goes on meanwhile as if it had been sent
   * (its sender is answered 0); one whose `until` never comes is never sent.
   */
  reorderCallbacks(hold: CallbackMatch, until: CallbackMatch, count = 1): void {
    this.callbackFaults.push({ remaining: count, match: hold, mode: 'hold', until });
  }

  /** Resolves once every automatic run started so far has sent its last callback. */
  async settled(): Promise<void> {
    while (this.autoRuns.size > 0) await Promise.all([...this.autoRuns]);
  }

  /** Called by the API module when it accepted a call (starts its auto-progress run, if any). */
  protected callPlaced(callId: string, to: string): void {
    const outcome = this.autoProgress?.(to.startsWith('+') ? to : `+${to}`);
    if (!outcome || outcome === 'hold') return;
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.progress(callId, outcome))
      .catch(() => undefined)
      .finally(() => this.autoRuns.delete(run));
    this.autoRuns.add(run);
  }

  /** Between the answer and the hang-up of an auto-progressed call: its `conversation`, if any. */
  protected async converse(integration: Integration, callId: string): Promise<void> {
    if (!this.conversation) return;
    await this.conversation({
      integration,
      callId,
      stream: async () => {
        const deadline = Date.now() + STREAM_WAIT_MS;
        for (;;) {
          const found = this.streamInstructions(callId);
          if (found) return found;
          if (Date.now() > deadline) throw new Error(`call ${callId} was never told to stream`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      hangupRequested: () => this.hangupRequested(callId),
    }).catch(() => undefined);
  }

  /** Where the call was told to stream its audio (from its answer instructions), if it was. */
  protected streamInstructions(_callId: string): StreamInstructions | undefined {
    return undefined;
  }

  protected hangupRequested(_callId: string): boolean {
    return false;
  }

  /** Walks one call through the statuses (and callbacks) of `outcome`. */
  protected abstract progress(callId: string, outcome: Exclude<AutoOutcome, 'hold'>): Promise<void>;

  /** The provider's error response for this status (body shape and, for 429, headers). */
  protected abstract errorResponse(
    status: number,
    message?: string,
    retryAfterSeconds?: number,
  ): FakeResponse;

  protected route(method: string, template: string, handler: RouteHandler): void {
    const names: string[] = [];
    const source = template
      .split(/(:[A-Za-z]+)/)
      .map((part) => {
        if (part.startsWith(':')) {
          names.push(part.slice(1));
          return '([^/]+?)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
  }

  /**
   * Sends one callback and records it, through the callback faults switched on; never throws
   * (status 0 when unreachable, lost or held back).
   */
  protected async deliver(delivery: Outgoing): Promise<CallbackDelivery> {
    const fault = this.takeCallbackFault(delivery);
    const unsent: CallbackDelivery = {
      ...delivery,
      status: 0,
      responseBody: '',
      deliveredAt: new Date(),
    };
    if (fault?.mode === 'lose') {
      const lost = { ...unsent, fault: 'lost' as const };
      this.deliveries.push(lost);
      return lost;
    }
    if (fault?.mode === 'hold') {
      this.held.push({ delivery, until: fault.until ?? {} });
      return unsent;
    }
    if (fault?.mode === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const delayed = fault?.mode === 'delay' ? 'delayed' : undefined;
    const record = await this.transmit(delivery, delayed);
    if (fault?.mode === 'duplicate') await this.transmit(delivery, 'duplicate');
    for (const waiting of this.held.filter(
      (held) => held.delivery.callId === delivery.callId && callbackMatches(delivery, held.until),
    )) {
      this.held.splice(this.held.indexOf(waiting), 1);
      await this.transmit(waiting.delivery, 'reordered');
    }
    return record;
  }

  private takeCallbackFault(delivery: Outgoing): CallbackFault | undefined {
    const fault = this.callbackFaults.find(
      (f) => f.remaining > 0 && callbackMatches(delivery, f.match),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.callbackFaults.splice(this.callbackFaults.indexOf(fault), 1);
    return fault;
  }

  private async transmit(
    delivery: Outgoing,
    fault: CallbackDelivery['fault'],
  ): Promise<CallbackDelivery> {
    const record: CallbackDelivery = {
      ...delivery,
      status: 0,
      responseBody: '',
      deliveredAt: new Date(),
      ...(fault ? { fault } : {}),
    };
    try {
      const response = await send(delivery.method, delivery.url, delivery.headers, delivery.body);
      record.status = response.status;
      record.responseBody = response.body;
      record.responseContentType = response.contentType;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    this.deliveries.push(record);
    this.onDelivery?.(record);
    return record;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let response: FakeResponse | 'flood' | 'stall';
    try {
      const recorded = await record(req);
      this.requests.push(recorded);
      response = (await this.dispatch(recorded)) ?? this.errorResponse(404);
      if (response === 'flood') return void this.floods.push(flood(res));
      if (response === 'stall') return;
    } catch (error) {
      response = this.errorResponse(500, error instanceof Error ? error.message : undefined);
    }
    if (response.bytes !== undefined) {
      res.writeHead(response.status, {
        'content-length': String(response.bytes.length),
        ...response.headers,
      });
      return void res.end(response.bytes);
    }
    const body = response.body === undefined ? '' : JSON.stringify(response.body);
    res.writeHead(response.status, {
      ...(body === '' ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...response.headers,
    });
    res.end(body);
  }

  private async dispatch(
    req: RecordedRequest,
  ): Promise<FakeResponse | 'flood' | 'stall' | undefined> {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (!f.match?.method || f.match.method === req.method) &&
        (!f.match?.path || pathMatches(req.path, f.match.path)) &&
        (!f.match?.body || f.match.body(req.body)),
    );
    if (fault) {
      fault.remaining -= 1;
      if (fault.remaining === 0) this.faults.splice(this.faults.indexOf(fault), 1);
      if (fault.flood) return 'flood';
      if (fault.stall) return 'stall';
      if (fault.delay) return this.answerLate(req, fault.delay);
      return this.errorResponse(fault.status, fault.message, fault.retryAfterSeconds);
    }
    return this.routed(req);
  }

  private async answerLate(
    req: RecordedRequest,
    { ms, handle }: NonNullable<Fault['delay']>,
  ): Promise<FakeResponse | undefined> {
    handle.inFlight += 1;
    handle.peak = Math.max(handle.peak, handle.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return await this.routed(req);
    } finally {
      handle.inFlight -= 1;
      handle.answered += 1;
    }
  }

  private async routed(req: RecordedRequest): Promise<FakeResponse | undefined> {
    let pathMatched = false;
    for (const route of this.routes) {
      const match = route.pattern.exec(req.path);
      if (!match) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = safeDecode(match[i + 1])));
      return route.handler({ req, params });
    }
    return pathMatched ? this.errorResponse(405) : undefined;
  }
}

function callbackMatches(delivery: Outgoing, match: CallbackMatch): boolean {
  if ((match.kind ?? 'status') !== delivery.kind) return false;
  if (match.callId !== undefined && match.callId !== delivery.callId) return false;
  if (match.event === undefined) return true;
  return typeof match.event === 'string'
    ? match.event === delivery.event
    : match.event.test(delivery.event);
}

function pathMatches(path: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? path.includes(pattern) : pattern.test(path);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  let body: unknown;
  if (contentType.includes('application/json') && rawBody !== '') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
  } else if (contentType.includes('application/x-www-form-urlencoded')) {
    body = parseForm(rawBody);
  }
  return {
    method: req.method ?? 'GET',
    path: queryAt === -1 ? target : target.slice(0, queryAt),
    query: queryAt === -1 ? {} : parseForm(target.slice(queryAt + 1)),
    headers: req.headers,
    rawBody,
    body,
    receivedAt: new Date(),
  };
}

// node:http with no keep-alive agent, so nothing lingers after a test; 10 s bound per callback.
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string; contentType?: string }> {
  const target = new URL(url);
  const requester = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = requester(
      target,
      {
        method,
        agent: false,
        timeout: 10_000,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: res.headers['content-type'],
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`callback to ${url} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
