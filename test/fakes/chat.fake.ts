import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cutAt, Faults, playHttpFault } from './faults';

/** One tool call the fake model makes; `arguments` is sent in small fragments when streamed. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the fake model answers to one request. */
export type ChatReply =
  /**
   * Text, streamed one piece per chunk (joined for a non-streamed request); `gapMs` apart, a model
   * that writes slower than its words are spoken.
   */
  | { kind: 'text'; pieces: string[]; gapMs?: number }
  /** Tool calls (after optional text), each split across several chunks. */
  | { kind: 'tool-calls'; calls: FakeToolCall[]; text?: string }
  /** An HTTP error with OpenAI's error body. */
  | { kind: 'error'; status: number; code?: string; message?: string }
  /** A 200 stream that sends `pieces`, then an error chunk and ends. */
  | { kind: 'mid-stream-error'; pieces: string[]; code?: string }
  /** Sends `pieces` (no headers at all when undefined), then nothing until the client gives up. */
  | { kind: 'stall'; pieces?: string[] };

export interface ReceivedChatRequest {
  headers: IncomingMessage['headers'];
  /** The JSON body as sent: model, messages, stream, tools, response_format… */
  body: Record<string, unknown>;
  /** performance.now() when the whole request had arrived. */
  receivedAt: number;
}

export interface ChatFakeOptions {
  /** Writes each streamed response in pieces of this many bytes (mid-line, mid-character). */
  splitBytes?: number;
}

/** A number of milliseconds, the same for every request or drawn per request. */
export type Latency = number | (() => number);

/**
 * A local OpenAI-compatible `POST /chat/completions`: SSE streams (`data:` chunks, a keep-alive
 * comment, `finish_reason`, `data: [DONE]`) and plain JSON answers, scripted reply by reply.
 * Unscripted requests get `respond` (by default the text "OK.").
 */
export class ChatFake {
  readonly requests: ReceivedChatRequest[] = [];
  /** Decides replies once the script runs out (e.g. from the caller's last words). */
  respond: (request: ReceivedChatRequest) => ChatReply = () => ({ kind: 'text', pieces: ['OK.'] });
  /** How long the model thinks before its first byte (a slow model, for benchmarks). */
  latency: Latency = 0;
  /**
   * Error statuses, 429 with Retry-After, latency, hangs, streams cut after some bytes. A faulted
   * request is recorded, and leaves the scripted reply for the next one unless it is a cut.
   */
  readonly faults = new Faults();
  private readonly script: ChatReply[] = [];
  /** Replies kept for requests that mention a marker (one call's, among calls held at once). */
  private readonly scriptFor = new Map<string, ChatReply[]>();
  private readonly stalled = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    private readonly options: ChatFakeOptions,
  ) {}

  static async start(options: ChatFakeOptions = {}): Promise<ChatFake> {
    const handlers: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
    const server = createServer((req, res) => void handlers.handle?.(req, res));
    const fake = new ChatFake(server, options);
    handlers.handle = (req, res) => fake.handle(req, res);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The base URL to configure as LLM_API_URL (ends before `/chat/completions`). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Queues replies for the next requests, in order. */
  reply(...replies: ChatReply[]): void {
    this.script.push(...replies);
  }

  /**
   * Queues replies for the next requests whose body mentions `marker` (e.g. a word of one
   * agent's prompt), so calls held at the same time each get their own; they go before `reply`'s.
   */
  replyTo(marker: string, ...replies: ChatReply[]): void {
    this.scriptFor.set(marker, [...(this.scriptFor.get(marker) ?? []), ...replies]);
  }

  /** The requests whose body mentions `marker`, in order. */
  requestsMentioning(marker: string): ReceivedChatRequest[] {
    return this.requests.filter((request) => JSON.stringify(request.body).includes(marker));
  }

  async stop(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      sendJson(res, 404, openAiError('not_found', 'Unknown route'));
      return;
    }
    const request: ReceivedChatRequest = {
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      receivedAt: performance.now(),
    };
    this.requests.push(request);
    const fault = this.faults.take();
    if (fault?.kind === 'hang') this.stalled.add(res);
    if (
      await playHttpFault(fault, res, (status) =>
        openAiError(status === 429 ? 'rate_limit_exceeded' : 'server_error'),
      )
    ) {
      return;
    }
    const text = JSON.stringify(request.body);
    const keyed = [...this.scriptFor].find(
      ([marker, replies]) => replies.length > 0 && text.includes(marker),
    );
    const reply = keyed?.[1].shift() ?? this.script.shift() ?? this.respond(request);
    const delay = typeof this.latency === 'function' ? this.latency() : this.latency;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (reply.kind === 'error') {
      sendJson(res, reply.status, openAiError(reply.code ?? 'server_error', reply.message));
      return;
    }
    if (reply.kind === 'stall' && reply.pieces === undefined) {
      this.stalled.add(res);
      return;
    }
    if (request.body.stream === true) await this.stream(res, reply, cutAt(fault));
    else sendJson(res, 200, completion(reply));
  }

  private async stream(
    res: ServerResponse,
    reply: Exclude<ChatReply, { kind: 'error' }>,
    cutAfterBytes = Infinity,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${randomUUID()}`;
    const lines: string[] = [': keep-alive'];
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      lines.push(`data: ${JSON.stringify(streamChunk(id, delta, finishReason))}`);
    chunk({ role: 'assistant', content: '' });
    const pieces = reply.kind === 'tool-calls' ? (reply.text ? [reply.text] : []) : reply.pieces;
    if (reply.kind === 'text' && reply.gapMs) {
      for (const content of pieces ?? []) {
        chunk({ content });
        await this.write(res, lines.splice(0));
        await new Promise((resolve) => setTimeout(resolve, reply.gapMs));
      }
      chunk({}, 'stop');
      lines.push('data: [DONE]');
      await this.write(res, lines);
      res.end();
      return;
    }
    for (const content of pieces ?? []) chunk({ content });
    if (reply.kind === 'stall') {
      await this.write(res, lines, cutAfterBytes);
      this.stalled.add(res);
      return;
    }
    if (reply.kind === 'mid-stream-error') {
      lines.push(`data: ${JSON.stringify(openAiError(reply.code ?? 'server_error'))}`);
      await this.write(res, lines, cutAfterBytes);
      res.end();
      return;
    }
    if (reply.kind === 'tool-calls') {
      reply.calls.forEach((call, index) => {
        const args = JSON.stringify(call.arguments);
        const callId = `call_${randomUUID().slice(0, 8)}`;
        chunk({
          tool_calls: [
            { index, id: callId, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        for (let at = 0; at < args.length; at += 5) {
          chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 5) } }] });
        }
      });
    }
    chunk({}, reply.kind === 'tool-calls' ? 'tool_calls' : 'stop');
    lines.push('data: [DONE]');
    await this.write(res, lines, cutAfterBytes);
    res.end();
  }

  /**
   * Events end with a blank line; with splitBytes the bytes go out in small separate writes. A
   * cut sends the first `cutAfterBytes` and drops the connection (the response never ends).
   */
  private async write(res: ServerResponse, lines: string[], cutAfterBytes = Infinity) {
    const whole = Buffer.from(lines.map((line) => `${line}\n\n`).join(''), 'utf8');
    const bytes = whole.subarray(0, cutAfterBytes);
    const size = this.options.splitBytes ?? bytes.length;
    for (let at = 0; at < bytes.length; at += size) {
      res.write(bytes.subarray(at, at + size));
      if (size < bytes.length) await new Promise((resolve) => setImmediate(resolve));
    }
    if (bytes.length === whole.length) return;
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    res.destroy();
  }
}

function streamChunk(id: string, delta: Record<string, unknown>, finishReason: string | null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function completion(reply: Exclude<ChatReply, { kind: 'error' }>) {
  const text = reply.kind === 'tool-calls' ? (reply.text ?? null) : (reply.pieces ?? []).join('');
  const toolCalls =
    reply.kind === 'tool-calls'
      ? reply.calls.map((call, index) => ({
          id: `call_${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }))
      : undefined;
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function openAiError(code: string, message = 'The fake model failed') {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
