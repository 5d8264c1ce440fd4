import { type OutboundResponse, sendRequest } from '../../http/outbound-request';
import { ProviderError, type ProviderErrorKind } from './provider-error';

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  /** application/x-www-form-urlencoded; arrays become repeated keys. */
  form?: Record<string, string | string[] | undefined>;
  /** Safe to repeat after a 429, 5xx or network error (reads and idempotent updates; never a call). */
  retry?: boolean;
  /** This request's own time limit, shorter than the client's (a key press). */
  timeoutMs?: number;
}

export interface ProviderResponse<T> {
  status: number;
  body: T;
}

export interface ProviderHttpOptions {
  timeoutMs?: number;
  maxAttempts?: number;
  maxWaitMs?: number;
  /** Largest response body read; a longer one fails the request as soon as the limit is crossed. */
  maxBodyBytes?: number;
  sleep?: (ms: number) => Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A request with a bounded timeout and body size, back-off on 429/5xx for requests marked
 * retryable (honouring Retry-After and x-ratelimit-reset), and provider errors turned into
 * ProviderError with the provider's own message.
 */
export class ProviderHttp {
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly maxWaitMs: number;
  private readonly maxBodyBytes: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly providerName: string,
    private readonly describe: (body: unknown) => string | undefined,
    options: ProviderHttpOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.maxWaitMs = options.maxWaitMs ?? 5_000;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async request<T>(request: ProviderRequest): Promise<ProviderResponse<T>> {
    for (let attempt = 1; ; attempt += 1) {
      const canRetry = request.retry === true && attempt < this.maxAttempts;
      let response: OutboundResponse;
      let body: unknown;
      try {
        response = await this.send(request);
        body = await this.readBody(response);
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        if (canRetry) {
          await this.sleep(backoff(attempt));
          continue;
        }
        throw new ProviderError(
          'unreachable',
          `${this.providerName} could not be reached (${describeNetworkError(error)})`,
          undefined,
          undefined,
          { neverConnected: neverConnected(error) },
        );
      }
      if (response.ok) return { status: response.status, body: body as T };
      if (canRetry && (response.status === 429 || response.status >= 500)) {
        await this.sleep(Math.min(this.maxWaitMs, waitFor(response) ?? backoff(attempt)));
        continue;
      }
      throw this.toError(response.status, body, request.headers, waitFor(response));
    }
  }

  private send(request: ProviderRequest): Promise<OutboundResponse> {
    const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = toForm(request.form);
    }
    return sendRequest(request.url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs ?? this.timeoutMs),
    });
  }

  /**
   * Reads the body chunk by chunk and gives up once it passes the limit, so a provider (or
   * anything posing as one) streaming an endless body costs at most the limit in memory.
   */
  private async readBody(response: OutboundResponse): Promise<unknown> {
    const declared = Number(response.header('content-length') ?? NaN);
    if (declared > this.maxBodyBytes) {
      response.discard();
      throw this.tooLarge(response.status);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > this.maxBodyBytes) {
        response.discard();
        throw this.tooLarge(response.status);
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      return text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return text;
    }
  }

  private tooLarge(status: number): ProviderError {
    return new ProviderError(
      'upstream',
      `${this.providerName} answered ${status} with a body over ${this.maxBodyBytes} bytes`,
      status,
    );
  }

  private toError(
    status: number,
    body: unknown,
    sent: Record<string, string>,
    retryAfterMs: number | undefined,
  ): ProviderError {
    const detail = redact(this.describe(body), sent)?.slice(0, 200);
    const message = `${this.providerName} answered ${status}${detail ? `: ${detail}` : ''}`;
    return new ProviderError(kindOf(status), message, status, body, {
      ...(retryAfterMs !== undefined ? { retryAfterSeconds: retryAfterMs / 1000 } : {}),
    });
  }
}

/**
 * A provider may echo what it was sent; the credentials of our Authorization header never reach
 * a message (nor do control characters, which could forge log lines).
 */
function redact(text: string | undefined, sent: Record<string, string>): string | undefined {
  if (!text) return text;
  let out = text.replace(/\p{Cc}+/gu, ' ');
  for (const secret of credentialsIn(sent.Authorization ?? '')) {
    out = out.split(secret).join('[redacted]');
  }
  return out;
}

function credentialsIn(authorization: string): string[] {
  const [scheme = '', value = ''] = authorization.split(' ');
  const values = [value];
  if (scheme === 'Basic') values.push(...Buffer.from(value, 'base64').toString('utf8').split(':'));
  return values.filter((secret) => secret.length >= 4);
}

function kindOf(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500 || (status >= 300 && status < 400)) return 'upstream';
  return 'invalid_request';
}

function toForm(form: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined) continue;
    for (const item of [value].flat()) params.append(key, item);
  }
  return params.toString();
}

/** Seconds from Retry-After, or the Telnyx x-ratelimit-reset, in ms. */
function waitFor(response: OutboundResponse): number | undefined {
  const header = response.header('retry-after') ?? response.header('x-ratelimit-reset');
  const seconds = header === undefined ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function backoff(attempt: number): number {
  return 250 * 2 ** (attempt - 1) + Math.floor(Math.random() * 100);
}

// Failures before a connection exists: the request never left this process.
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function neverConnected(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && NEVER_CONNECTED.has(code);
}

function describeNetworkError(error: unknown): string {
  const { name, code } = error as { name?: unknown; code?: unknown };
  if (name === 'TimeoutError') return 'timed out';
  return typeof code === 'string' ? code : 'network error';
}

export function basicAuth(user: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

export function bearerAuth(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
