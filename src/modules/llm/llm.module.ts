import { detach } from '../../common/detach';
import { Inject, Logger, Module, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { EngineCircuit } from '../../common/failover/engine-circuit';
import {
  type EngineEvents,
  type EngineRef,
  NO_ENGINE_EVENTS,
} from '../../common/failover/engine-events';
import { APP_CONFIG, type AppConfig } from '../../config';
import { SwitchboardMetrics } from '../../metrics/switchboard-metrics';
import { CHAT_MODEL, type ChatModel, VOICE_CHAT_MODEL } from './chat-model';
import { FailoverChatModel } from './failover-chat-model';
import { OpenAiChatModel } from './openai-chat-model';
import { UnconfiguredChatModel } from './unconfigured-chat-model';

const WARN_LOG = new Logger('ChatModel');

export function createChatModel({ llm }: AppConfig): ChatModel {
  if (llm.apiUrl === undefined) return new UnconfiguredChatModel();
  return new OpenAiChatModel({ ...llm, apiUrl: llm.apiUrl });
}

/** LLM_* then LLM_FALLBACK_*, within LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS (see FailoverChatModel). */
export function createVoiceChatModel(
  { llm, engineCircuit }: Pick<AppConfig, 'llm' | 'engineCircuit'>,
  events: EngineEvents = NO_ENGINE_EVENTS,
): ChatModel {
  if (llm.apiUrl === undefined) return new UnconfiguredChatModel();
  const endpoints = [{ ...llm, apiUrl: llm.apiUrl }, ...(llm.fallback ? [llm.fallback] : [])];
  const slots = endpoints.map((endpoint, index) => {
    const ref: EngineRef = {
      dependency: 'llm',
      role: index === 0 ? 'primary' : 'fallback',
      engine: 'openai-compatible',
    };
    events.state(ref, 'ok');
    return {
      ref,
      // The failover bounds the first token and every silence with the voice deadline; these
      // limits only back it up.
      model: new OpenAiChatModel({
        ...endpoint,
        firstByteTimeoutMs: llm.firstByteTimeoutMs,
        idleTimeoutMs: llm.idleTimeoutMs,
      }),
      circuit: new EngineCircuit(engineCircuit, (state) => events.state(ref, state)),
      apiUrl: endpoint.apiUrl,
    };
  });
  return new FailoverChatModel(slots, llm.voiceFirstTokenTimeoutMs, events);
}

/**
 * The one OpenAI-compatible chat client behind CHAT_MODEL (messaging, post-call), and the same
 * service with the live-call deadline and fallback behind VOICE_CHAT_MODEL.
 */
@Module({
  providers: [
    { provide: CHAT_MODEL, useFactory: createChatModel, inject: [APP_CONFIG] },
    {
      provide: VOICE_CHAT_MODEL,
      useFactory: (config: AppConfig, metrics?: SwitchboardMetrics) =>
        createVoiceChatModel(config, metrics?.engineEvents),
      inject: [APP_CONFIG, { token: SwitchboardMetrics, optional: true }],
    },
  ],
  exports: [CHAT_MODEL, VOICE_CHAT_MODEL],
})
export class LlmModule implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(VOICE_CHAT_MODEL) private readonly voiceModel: ChatModel,
    @Optional() private readonly logger?: PinoLogger,
  ) {
    this.logger?.setContext('ChatModel');
  }

  /** Live calls need the model at once: a service that cannot be reached now is logged. */
  onApplicationBootstrap(): void {
    if (!this.config.voice.runtime || !(this.voiceModel instanceof FailoverChatModel)) return;
    detach(
      this.voiceModel
        .warnings()
        .then((warnings) => warnings.forEach((warning) => this.logger?.warn(warning))),
      { what: 'Chat model check', logger: WARN_LOG },
    );
  }
}
