import { type OutboundResponse, sendRequest } from '../../http/outbound-request';
import { parseRetryAfter } from '../../http/retry-after';
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatToolCall } from './chat-model';
import { ChatChunkAssembler } from './chat-chunk-assembler';
import { describeUpstreamError, LlmError } from './llm.error';
import { SseDecoder } from './sse-decoder';

export interface OpenAiChatModelOptions {
  /** Ends before `/chat/completions`, e.g. `https://api.openai.com/v1`. */
  apiUrl: string;
  apiKey: string | undefined;
  model: string;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

/** One request's cancellation: the caller's signal, and our own first-byte and idle timers. */
class RequestLifetime {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut: string | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort();

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal?.aborted) this.controller.abort();
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Aborts unless disarmed or re-armed within `ms`. */
  arm(ms: number, waitingFor: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = `no ${waitingFor} within ${ms} ms`;
      this.controller.abort();
    }, ms);
  }

  /** What a failure of fetch or of a body read means. */
  explain(error: unknown): unknown {
    if (this.callerSignal?.aborted) return this.callerSignal.reason as unknown;
    if (this.timedOut !== undefined) {
      return new LlmError('timeout', `chat model timed out: ${this.timedOut}`);
    }
    if (error instanceof LlmError) return error;
    return new LlmError('unreachable', 'chat model is unreachable');
  }

  close(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
  }
}

/** An OpenAI-compatible `POST {apiUrl}/chat/completions` client. */
export class OpenAiChatModel implements ChatModel {
  constructor(private readonly options: OpenAiChatModelOptions) {}

  async *stream(request: ChatRequest): AsyncGenerator<ChatStreamEvent> {
    const lifetime = new RequestLifetime(request.signal);
    try {
      const response = await this.post(request, true, lifetime);
      const reader = response.body[Symbol.asyncIterator]();
      const sse = new SseDecoder();
      const assembler = new ChatChunkAssembler();
      for (;;) {
        lifetime.arm(this.options.idleTimeoutMs, 'stream data');
        let chunk: IteratorResult<Buffer>;
        try {
          chunk = await reader.next();
        } catch (error) {
          throw lifetime.explain(error);
        }
        const done = chunk.done === true;
        const payloads = done ? sse.end() : sse.push(chunk.value as Buffer);
        for (const payload of payloads) {
          for (const event of assembler.accept(payload)) {
            yield event;
            if (event.kind === 'done') return;
          }
        }
        if (done) {
          yield* assembler.end();
          return;
        }
      }
    } finally {
      lifetime.close();
    }
  }

  async complete(request: ChatRequest): Promise<{ text: string; toolCalls: ChatToolCall[] }> {
    const lifetime = new RequestLifetime(request.signal);
    try {
      const response = await this.post(request, false, lifetime);
      lifetime.arm(this.options.idleTimeoutMs, 'complete body');
      const body = await response.text().catch((error: unknown) => {
        throw lifetime.explain(error);
      });
      return parseCompletion(body, request.jsonSchema !== undefined);
    } finally {
      lifetime.close();
    }
  }

  private async post(
    request: ChatRequest,
    stream: boolean,
    lifetime: RequestLifetime,
  ): Promise<OutboundResponse> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    lifetime.arm(this.options.firstByteTimeoutMs, 'response');
    let response: OutboundResponse;
    try {
      response = await sendRequest(`${this.options.apiUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(this.body(request, stream)),
        signal: lifetime.controller.signal,
      });
    } catch (error) {
      throw lifetime.explain(error);
    }
    if (!response.ok) {
      const code = describeUpstreamError(await response.json().catch(() => undefined));
      throw new LlmError(
        'refused',
        `chat model refused the request: HTTP ${response.status}${code ? ` (${code})` : ''}`,
        response.status,
        parseRetryAfter(response.header('retry-after'), new Date()),
      );
    }
    return response;
  }

  private body(request: ChatRequest, stream: boolean): Record<string, unknown> {
    return {
      model: request.model ?? this.options.model,
      messages: request.messages,
      stream,
      ...(request.tools?.length ? { tools: request.tools } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.jsonSchema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: { ...request.jsonSchema, strict: true },
            },
          }
        : {}),
    };
  }
}

function parseCompletion(
  body: string,
  expectJson: boolean,
): { text: string; toolCalls: ChatToolCall[] } {
  const malformed = (what: string): LlmError =>
    new LlmError('malformed', `chat model answer is malformed: ${what}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw malformed('not JSON');
  }
  const message = (parsed as { choices?: { message?: unknown }[] } | null)?.choices?.[0]?.message;
  if (typeof message !== 'object' || message === null) throw malformed('no message');
  const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw malformed('content is not text');
  }
  const text = content ?? '';
  if (expectJson) {
    try {
      JSON.parse(text);
    } catch {
      throw malformed('structured output is not JSON');
    }
  }
  return { text, toolCalls: Array.isArray(calls) ? calls.map(toToolCall) : [] };
}

function toToolCall(value: unknown, index: number): ChatToolCall {
  const call = value as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const name = call.function?.name;
  if (typeof name !== 'string' || name === '') {
    throw new LlmError('malformed', 'chat model answer is malformed: a tool call has no name');
  }
  const args = call.function?.arguments;
  return {
    id: typeof call.id === 'string' ? call.id : `call_${index}`,
    type: 'function',
    function: { name, arguments: typeof args === 'string' && args !== '' ? args : '{}' },
  };
}
