import type { ChatStreamEvent, ChatToolCall } from './chat-model';
import { describeUpstreamError, LlmError } from './llm.error';

interface ToolCallDraft {
  id: string;
  name: string;
  arguments: string;
}

interface ToolCallDelta {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

const malformed = (what: string): LlmError =>
  new LlmError('malformed', `chat model stream is malformed: ${what}`);

/**
 * Turns the `data:` payloads of a streamed chat completion into events: text as it comes, each
 * tool call once whole (its id and name arrive first, its arguments in fragments, keyed by
 * `index`), then `done` with the finish reason.
 */
export class ChatChunkAssembler {
  private readonly drafts = new Map<number, ToolCallDraft>();
  private finishReason: string | undefined;
  private ended = false;

  /** One `data:` payload; `[DONE]` ends the stream. */
  accept(payload: string): ChatStreamEvent[] {
    if (this.ended) return [];
    if (payload.trim() === '[DONE]') return this.finish();
    let chunk: unknown;
    try {
      chunk = JSON.parse(payload);
    } catch {
      throw malformed('a chunk is not JSON');
    }
    if (typeof chunk !== 'object' || chunk === null) throw malformed('a chunk is not an object');
    if ('error' in chunk) {
      const code = describeUpstreamError(chunk);
      throw new LlmError('refused', `chat model failed mid-stream${code ? ` (${code})` : ''}`);
    }
    const choices = (chunk as { choices?: unknown }).choices;
    // The usage chunk (stream_options.include_usage) has no choices.
    if (!Array.isArray(choices) || choices.length === 0) return [];
    const choice = choices[0] as { delta?: unknown; finish_reason?: unknown };
    const events: ChatStreamEvent[] = [];
    const delta = (choice.delta ?? {}) as { content?: unknown; tool_calls?: unknown };
    if (typeof delta.content === 'string' && delta.content !== '') {
      events.push({ kind: 'text', text: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as ToolCallDelta[]) this.mergeToolCall(call);
    }
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    return events;
  }

  /** The end of the body: without `[DONE]` a stream still ends well if it gave a finish reason. */
  end(): ChatStreamEvent[] {
    if (this.ended) return [];
    if (this.finishReason === undefined) throw malformed('it ended before finishing');
    return this.finish();
  }

  private finish(): ChatStreamEvent[] {
    this.ended = true;
    const calls = [...this.drafts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, draft]): ChatToolCall => {
        if (draft.name === '') throw malformed('a tool call has no name');
        const args = draft.arguments === '' ? '{}' : draft.arguments;
        return { id: draft.id, type: 'function', function: { name: draft.name, arguments: args } };
      });
    const reason = this.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
    return [
      ...calls.map((call): ChatStreamEvent => ({ kind: 'tool-call', call })),
      { kind: 'done', finishReason: reason },
    ];
  }

  private mergeToolCall(delta: ToolCallDelta): void {
    const index = typeof delta.index === 'number' ? delta.index : this.drafts.size;
    let draft = this.drafts.get(index);
    if (draft === undefined) {
      draft = { id: `call_${index}`, name: '', arguments: '' };
      this.drafts.set(index, draft);
    }
    if (typeof delta.id === 'string' && delta.id !== '') draft.id = delta.id;
    const fn = delta.function ?? {};
    // The name comes whole in the call's first fragment; some servers repeat it later.
    if (typeof fn.name === 'string' && draft.name === '') draft.name = fn.name;
    if (typeof fn.arguments === 'string') draft.arguments += fn.arguments;
  }
}
