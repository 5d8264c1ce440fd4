import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  DRAIN_WIND_UP_SECONDS,
  type DrainParticipant,
  ProcessDrain,
} from '../../../lifecycle/process-drain';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../../config';
import type { Integration } from '../../telephony/telephony.types';
import type { MediaOutput } from '../media/media-stream';
import { StreamTokens } from '../media/stream-tokens';
import { CollectedDigits } from '../../call-records/collected-digits';
import { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import { DncService } from '../../dnc/dnc.service';
import { CHAT_MODEL, type ChatModel } from '../../llm/chat-model';
import { OutboundPacer } from '../audio/outbound-pacer';
import { VoiceActivityDetector } from '../audio/voice-activity-detector';
import { SPEECH_ENGINES, type SpeechEngines } from '../speech/speech-engines';
import { CallContexts } from './call-contexts';
import { CallSession } from './call-session';
import type { SessionDependencies } from './session-dependencies';
import { CallSignals } from './call-signals';
import { VoiceTurnObserver } from './voice-turn-observer';
import { CallTransfers } from './call-transfers';
import { TurnPromptService } from './turn-prompt.service';
import { LineAudio } from './line-audio';
import { isFinal } from '../../dialer/progress-rules';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a session per media stream; when the process drains, lets them end within the grace
 * period and winds up the rest (a closing line, the hang-up, the contact called again).
 */
@Injectable()
export class CallSessions implements OnModuleDestroy, DrainParticipant {
  private readonly live = new Set<CallSession>();
  private readonly deps: SessionDependencies;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @Inject(SPEECH_ENGINES) engines: SpeechEngines,
    tokens: StreamTokens,
    pacer: OutboundPacer,
    calls: CallContexts,
    private readonly logger: PinoLogger,
    private readonly vad: VoiceActivityDetector,
    @Inject(CHAT_MODEL) chat: ChatModel,
    prompts: TurnPromptService,
    private readonly logs: PhoneLogsRepository,
    digits: CollectedDigits,
    dnc: DncService,
    signals: CallSignals,
    transfers: CallTransfers,
    observer: VoiceTurnObserver,
    drain: ProcessDrain,
  ) {
    drain.register(this);
    logger.setContext(CallSession.name);
    this.deps = {
      tokens,
      calls,
      tts: engines.tts,
      greetings: engines.stt.transcribeGreeting
        ? (ulaw, signal) => engines.stt.transcribeGreeting!(ulaw, signal)
        : undefined,
      pacer,
      defaultVoice: config.speech.tts.voice,
      logger,
      signals,
      transfers,
      lines: new LineAudio(engines.tts),
      endings: logs,
      observer,
      conversation:
        config.llm.apiUrl === undefined
          ? null
          : { vad, stt: engines.stt, chat, prompts, turns: logs, digits, dnc, observer },
    };
  }

  /**
   * Loads the voice activity model before the first call when calls hold conversations: the
   * load blocks the event loop for a few hundred ms, which on a live call would hold back its
   * greeting and every other call's paced audio.
   */
  async warmUp(): Promise<void> {
    if (!this.config.voice.runtime || !this.deps.conversation) return;
    const readiness = await this.vad.readiness();
    if (!readiness.ready)
      this.logger.warn({ reason: readiness.reason }, 'Voice activity model not loaded');
  }

  open(integration: Integration, output: MediaOutput): CallSession {
    const session = new CallSession(integration, output, this.deps, (ended) =>
      this.live.delete(ended),
    );
    this.live.add(session);
    return session;
  }

  get size(): number {
    return this.live.size;
  }

  async drain(graceMs: number): Promise<void> {
    // Every call this process holds (no new one opens while it drains).
    const held = [...this.live];
    await this.untilNoneLive(Date.now() + graceMs);
    const windUpEnds = Date.now() + DRAIN_WIND_UP_SECONDS * 1_000;
    if (this.live.size > 0) {
      this.logger.warn({ calls: this.live.size }, 'Drain grace period over: ending the live calls');
      for (const session of this.live) session.drain();
      // A closing line and the hang-up: the flow's own bounds (DEFAULT_FLOW_TIMING) end each.
      await this.untilNoneLive(windUpEnds);
    }
    // The provider's final callback (whichever process takes it) ends each attempt and has its
    // contact called again; one that came after this process stopped listening would leave the
    // attempt in progress until recovery, long after the restart.
    await this.untilAttemptsEnd(held, windUpEnds);
  }

  private async untilNoneLive(deadline: number): Promise<void> {
    while (this.live.size > 0 && Date.now() < deadline) await pause(100);
  }

  private async untilAttemptsEnd(sessions: CallSession[], deadline: number): Promise<void> {
    let waiting = sessions.flatMap((session) => session.heldCall ?? []);
    while (waiting.length > 0 && Date.now() < deadline) {
      const ended = await Promise.all(
        waiting.map(({ organizationId, phoneLogId }) =>
          this.logs.findById(organizationId, phoneLogId).then(
            (log) => !log || isFinal(log.callStatus),
            () => false,
          ),
        ),
      );
      waiting = waiting.filter((_, i) => !ended[i]);
      if (waiting.length > 0) await pause(250);
    }
    if (waiting.length > 0)
      this.logger.warn({ calls: waiting.length }, 'Drain: no final status from the provider yet');
  }

  onModuleDestroy(): void {
    for (const session of [...this.live]) session.end();
  }
}
