/** One message of an OpenAI-compatible chat conversation. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A function the model may call; `parameters` is a JSON schema. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  /** Structured output (`response_format: {type: 'json_schema'}`). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  temperature?: number;
  /** Another model than the configured LLM_MODEL (an agent's own choice). */
  model?: string;
  signal?: AbortSignal;
}

/** What a streamed completion yields: text as it comes, then whole tool calls, then the end. */
export type ChatStreamEvent =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; call: ChatToolCall }
  | { kind: 'done'; finishReason: string };

export interface ChatModel {
  /** Streams one completion (SSE); throws LlmError on a refused request, a timeout or bad data. */
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
  /** One whole completion: its text (or JSON text when jsonSchema is given) and tool calls. */
  complete(request: ChatRequest): Promise<{ text: string; toolCalls: ChatToolCall[] }>;
}

export const CHAT_MODEL = Symbol('ChatModel');

/**
 * The chat model of live calls: CHAT_MODEL's service with the voice deadline, one retry and
 * LLM_FALLBACK_* (see FailoverChatModel). Messaging and post-call work keep CHAT_MODEL: their
 * queues retry for them, with longer limits.
 */
export const VOICE_CHAT_MODEL = Symbol('VoiceChatModel');
