import type { ChatModel, ChatStreamEvent, ChatToolCall } from './chat-model';
import { LlmError } from './llm.error';

const notConfigured = (): LlmError =>
  new LlmError('not_configured', 'no chat model is configured (LLM_API_URL is unset)');

/** CHAT_MODEL when LLM_API_URL is unset: every request fails with not_configured. */
export class UnconfiguredChatModel implements ChatModel {
  // eslint-disable-next-line require-yield -- it refuses before yielding anything
  async *stream(): AsyncGenerator<ChatStreamEvent> {
    await Promise.resolve();
    throw notConfigured();
  }

  complete(): Promise<{ text: string; toolCalls: ChatToolCall[] }> {
    return Promise.reject(notConfigured());
  }
}
