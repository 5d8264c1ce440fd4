import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CallRecordsModule } from '../call-records/call-records.module';
import { PhonesModule } from '../phones/phones.module';
import { TelephonyModule } from '../telephony/telephony.module';
import { DialerModule } from '../dialer/dialer.module';
import { DncModule } from '../dnc/dnc.module';
import { CHAT_MODEL, VOICE_CHAT_MODEL } from '../llm/chat-model';
import { LlmModule } from '../llm/llm.module';
import { VoiceAudioModule } from './audio/voice-audio.module';
import { MediaGateway } from './media/media-gateway';
import { StreamTokens } from './media/stream-tokens';
import { StreamTokensRepository } from './media/stream-tokens.repository';
import { CallContexts } from './session/call-contexts';
import { VoiceTurnObserver } from './session/voice-turn-observer';
import { CallSessions } from './session/call-sessions';
import { CallSignals } from './session/call-signals';
import { CallTransfers } from './session/call-transfers';
import { TurnPromptModule } from './session/turn-prompt.module';
import { SpeechModule } from './speech/speech.module';
import { VoiceRuntime } from './voice-runtime';

/**
 * The voice runtime (contract §8): the media WebSocket and its per-provider gateways, the stream
 * tokens, the call sessions. The answer callbacks ask VoiceRuntime whether to connect a call;
 * the status callbacks tell a live session what the provider learnt later (CallSignals).
 */
@Module({
  imports: [
    SpeechModule,
    VoiceAudioModule,
    AgentsModule,
    CallRecordsModule,
    PhonesModule,
    TelephonyModule,
    LlmModule,
    TurnPromptModule,
    DncModule,
    DialerModule,
  ],
  providers: [
    // Live calls talk to the model with the voice deadline, retry and fallback: inside this
    // module CHAT_MODEL is VOICE_CHAT_MODEL (the session's services ask for CHAT_MODEL).
    { provide: CHAT_MODEL, useExisting: VOICE_CHAT_MODEL },
    StreamTokensRepository,
    StreamTokens,
    VoiceRuntime,
    CallContexts,
    CallSessions,
    CallSignals,
    CallTransfers,
    VoiceTurnObserver,
    MediaGateway,
  ],
  exports: [VoiceRuntime, CallSignals],
})
export class VoiceModule {}
