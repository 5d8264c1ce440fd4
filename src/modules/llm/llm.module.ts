import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CHAT_MODEL, type ChatModel } from './chat-model';
import { OpenAiChatModel } from './openai-chat-model';
import { UnconfiguredChatModel } from './unconfigured-chat-model';

export function createChatModel({ llm }: AppConfig): ChatModel {
  if (llm.apiUrl === undefined) return new UnconfiguredChatModel();
  return new OpenAiChatModel({ ...llm, apiUrl: llm.apiUrl });
}

/** The one OpenAI-compatible chat client (voice turns, messaging, post-call), behind CHAT_MODEL. */
@Module({
  providers: [{ provide: CHAT_MODEL, useFactory: createChatModel, inject: [APP_CONFIG] }],
  exports: [CHAT_MODEL],
})
export class LlmModule {}
