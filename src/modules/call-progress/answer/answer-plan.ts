import type { AgentRow } from '../../agents/agents.schema';
import type { AmdVerdict } from '../../telephony/answered-by';
import type { StreamConnection } from '../../voice/voice-runtime';

/** Something said on the call with the provider's own speech verb. */
export interface Speech {
  text: string;
  /** BCP 47. */
  language: string;
  /** The agent's voice, passed as the verb's voice where set. */
  voice: string | null;
}

/** Record the whole call; the provider posts the file's URL to `callbackUrl`. */
export interface RecordingRequest {
  callbackUrl: string;
  maxSeconds: number;
}

/**
 * What an answered call hears: the media stream, where the voice runtime speaks (contract §8),
 * or, when it cannot run, the agent's line with the provider's speech verb and a hang-up.
 */
export type AnswerPlan =
  | { kind: 'speak'; speech: Speech | null; record?: RecordingRequest }
  | { kind: 'stream'; stream: StreamConnection; record?: RecordingRequest }
  | { kind: 'hangup' };

/** Said when the attempt has no agent (or it has no greeting): who calls, and goodbye. */
export const NEUTRAL_LINE = 'Hello, this is an automated call. Goodbye.';

/** Said to a caller no one took from a transfer when the agent cannot take them back. */
export const TRANSFER_UNANSWERED_LINE =
  "I'm sorry, no one could take your call right now. Please call us back later. Goodbye.";

export type SpeakingAgent = Pick<
  AgentRow,
  'greeting' | 'voicemailMessage' | 'language' | 'voice' | 'maxCallSeconds'
>;

/**
 * The agent's greeting to a person (or to an undecided detection); its voicemail message to a
 * machine, or nothing when it has none. No agent or no greeting: the neutral line.
 */
export function answerSpeech(
  agent: SpeakingAgent | null,
  answeredBy: AmdVerdict | null,
): Speech | null {
  const said =
    answeredBy === 'machine'
      ? agent?.voicemailMessage?.trim() || null
      : agent?.greeting?.trim() || NEUTRAL_LINE;
  return said === null ? null : agentSpeech(agent, said);
}

/** `text` in the agent's language and voice; en-US and the provider's own voice without one. */
export function agentSpeech(
  agent: Pick<AgentRow, 'language' | 'voice'> | null,
  text: string,
): Speech {
  return { text, language: agent?.language || 'en-US', voice: agent?.voice || null };
}

/** What the answered call says by the provider's speech verb (answerSpeech), recorded or not. */
export function planAnswer(
  agent: SpeakingAgent | null,
  answeredBy: AmdVerdict | null,
  record?: RecordingRequest,
): AnswerPlan {
  return { kind: 'speak', speech: answerSpeech(agent, answeredBy), ...(record ? { record } : {}) };
}
