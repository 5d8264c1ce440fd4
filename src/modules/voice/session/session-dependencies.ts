import type { PinoLogger } from 'nestjs-pino';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { OutboundPacer } from '../audio/outbound-pacer';
import type { StreamTokens } from '../media/stream-tokens';
import type { TextToSpeech } from '../speech/speech-engines';
import type { CallContexts } from './call-contexts';
import type { CallSignals } from './call-signals';
import type { CallTransfers } from './call-transfers';
import type { CallFlowTiming } from './call-flow';
import type { ConversationServices } from './conversation';
import type { GreetingRecogniser } from './greeting-words';
import type { LineAudio } from './line-audio';
import type { VoiceTurnObserver } from './voice-turn-observer';

/** What a call session is given: built once by CallSessions, faked in the session's unit tests. */
export interface SessionDependencies {
  tokens: StreamTokens;
  calls: CallContexts;
  tts: TextToSpeech;
  /** The process-wide timer that sends every call's audio in real time. */
  pacer: OutboundPacer;
  /** The voice to use when the agent names none (TTS_VOICE). */
  defaultVoice: string;
  logger: PinoLogger;
  /** What the conversation after the greeting needs; null: no model configured (greeting only). */
  conversation: Omit<ConversationServices, 'logger'> | null;
  /** The recogniser's first-turn model (SpeechToText.transcribeGreeting), where it has one. */
  greetings?: GreetingRecogniser;
  /** Provider callbacks' news of this call (a late machine verdict, the machine's beep). */
  signals: Pick<CallSignals, 'listen'>;
  transfers: Pick<CallTransfers, 'transfer'>;
  /** The agent's own lines, kept once synthesized (process-wide). */
  lines: Pick<LineAudio, 'get' | 'keep' | 'warm'>;
  /** Where the session records who answered (AnswerWatch) and why it ended a call. */
  endings: Pick<PhoneLogsRepository, 'recordSessionEnd' | 'recordAnswerOutcome'>;
  /** Counts how sessions end; none in unit tests. */
  observer?: Pick<VoiceTurnObserver, 'sessionEnded'>;
  /** The flow's deadlines (DEFAULT_FLOW_TIMING; unit tests shorten them). */
  timing?: CallFlowTiming;
}
