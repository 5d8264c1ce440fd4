import type { EngineCircuit } from '../../common/failover/engine-circuit';
import type { EngineEvents, EngineRef } from '../../common/failover/engine-events';
import { unreachableReason } from '../../common/failover/reachability';
import { failover, type FailoverEngine, once } from '../../common/failover/failover';
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatToolCall } from './chat-model';

/** A configured chat model (LLM_* or LLM_FALLBACK_*) with its circuit breaker. */
export interface ChatModelSlot {
  ref: EngineRef;
  model: ChatModel;
  circuit: EngineCircuit;
  /** Its service, checked for reachability at start. */
  apiUrl: string;
}

/**
 * The chat model of live calls: LLM_* with one retry, then LLM_FALLBACK_* when configured, each
 * behind its circuit breaker. A reply's first event comes by `deadlineMs`
 * (LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS), no later silence is longer, or the stream throws one
 * DependencyFailure('llm'). A reply that fails after it has given text is not started again on
 * the fallback (the caller heard part of it): it fails at once. The fallback answers with its own
 * LLM_FALLBACK_MODEL, whatever model the agent names.
 */
export class FailoverChatModel implements ChatModel {
  constructor(
    private readonly models: readonly ChatModelSlot[],
    private readonly deadlineMs: number,
    private readonly events: EngineEvents,
  ) {}

  /** The chat services that cannot be reached now (marked failing), for the start-up log. */
  async warnings(): Promise<string[]> {
    const found = await Promise.all(
      this.models.map(async ({ ref, circuit, apiUrl }) => {
        const reason = await unreachableReason(apiUrl);
        if (reason === undefined) return undefined;
        circuit.unreachable();
        return `LLM ${ref.role} engine ${ref.engine} cannot be reached (${reason})`;
      }),
    );
    return found.filter((warning) => warning !== undefined);
  }

  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    return this.run(request, (model, signal, fallback) =>
      model.stream({ ...request, signal, ...(fallback ? { model: undefined } : {}) }),
    );
  }

  async complete(request: ChatRequest): Promise<{ text: string; toolCalls: ChatToolCall[] }> {
    const answers = this.run(request, (model, signal, fallback) =>
      once(() => model.complete({ ...request, signal, ...(fallback ? { model: undefined } : {}) })),
    );
    for await (const answer of answers) return answer;
    // Only the caller's abort ends the work without an answer.
    throw request.signal?.reason ?? new Error('the chat completion was aborted');
  }

  private run<T>(
    request: ChatRequest,
    work: (model: ChatModel, signal: AbortSignal, fallback: boolean) => AsyncIterable<T>,
  ): AsyncIterable<T> {
    const engines: FailoverEngine<T>[] = this.models.map(({ ref, model, circuit }, index) => ({
      ref,
      circuit,
      run: (signal) => work(model, signal, index > 0),
    }));
    return failover(
      engines,
      {
        dependency: 'llm',
        deadlineMs: this.deadlineMs,
        idleMs: this.deadlineMs,
        afterOutput: 'fail',
        events: this.events,
      },
      request.signal,
    );
  }
}
