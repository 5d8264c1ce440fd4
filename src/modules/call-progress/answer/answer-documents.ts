import type { StreamConnection } from '../../voice/voice-runtime';
import type { AgentRow } from '../../agents/agents.schema';
import { type AnswerPlan, agentSpeech, type Speech } from './answer-plan';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
// What XML 1.0 cannot carry (controls but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF), and
// the C1 controls and DEL, which no speech engine should read out.
const NOT_XML = /(?![\t\n\r])\p{Cc}|\p{Cs}|[\uFFFE\uFFFF]/gu;

/** Text or attribute value safe inside an XML document. */
export function xmlEscape(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attributes = (values: Record<string, string | number | null | undefined>): string =>
  Object.entries(values)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');

const speak = (verb: 'Say' | 'Speak', speech: Speech | null): string =>
  speech
    ? `<${verb}${attributes({ language: speech.language, voice: speech.voice })}>${xmlEscape(speech.text)}</${verb}>`
    : '';

/** The audio format every stream speaks: 20 ms frames of 8 kHz μ-law. */
const STREAM_CONTENT_TYPE = 'audio/x-mulaw;rate=8000';

/** provider_two: TwiML. Twilio drops a Stream URL's query: the token goes as a <Parameter>. */
export function twimlAnswer(plan: AnswerPlan): string {
  if (plan.kind === 'stream') {
    const { url, token } = plan.stream;
    return (
      `${XML_DECLARATION}<Response><Connect><Stream${attributes({ url })}>` +
      `<Parameter${attributes({ name: 'token', value: token })}/></Stream></Connect></Response>`
    );
  }
  const body = plan.kind === 'speak' ? speak('Say', plan.speech) : '';
  return `${XML_DECLARATION}<Response>${body}<Hangup/></Response>`;
}

/** Where a transferred call goes: the agent's transferNumber, shown our calling number. */
export interface DialTarget {
  to: string;
  callerId: string;
  /** <Dial timeout>: how long the new party's phone rings before the provider gives up. */
  ringTimeoutSeconds: number;
  /** Where the provider reports the new party's answer and the <Dial>'s end (transfer-status). */
  progressUrl: string;
  /**
   * Warm: where the provider fetches what the new party hears once they pick up, before they are
   * put through (transfer-briefing: Twilio's <Number url>, Plivo's confirmSound).
   */
  briefingUrl?: string;
  /** Warm, Plivo: the dialMusic document the caller hears meanwhile (HOLD_MUSIC_PATH). */
  holdUrl?: string;
}

/** Where HoldSoundsController serves the hold document and the ringback it plays. */
export const SOUNDS_ROUTE = 'api/telephony/sounds';
export const HOLD_MUSIC_FILE = 'hold.xml';
export const RINGBACK_WAV_FILE = 'ringback.wav';
export const HOLD_MUSIC_PATH = `/${SOUNDS_ROUTE}/${HOLD_MUSIC_FILE}`;
const RINGBACK_WAV_PATH = `/${SOUNDS_ROUTE}/${RINGBACK_WAV_FILE}`;

/** provider_one: the hold document: the ringback, looped until the Dial connects. */
export function plivoHold(publicBaseUrl: string): string {
  return `${XML_DECLARATION}<Response><Play loop="0">${xmlEscape(publicBaseUrl + RINGBACK_WAV_PATH)}</Play></Response>`;
}

/** The key a warm transfer's colleague presses to take the call. */
export const TRANSFER_ACCEPT_KEY = '1';
/** How long a briefed colleague has to press it, in seconds, once the brief was read. */
export const TRANSFER_ACCEPT_SECONDS = 10;

/** A warm transfer's brief: read to the colleague, who then presses TRANSFER_ACCEPT_KEY. */
export interface Briefing {
  /** What the colleague hears (briefingSpeech). */
  speech: Speech;
  /** Twilio's <Gather action>, where the key pressed is reported (transfer-decision). */
  decisionUrl: string;
}

/**
 * The brief as the colleague hears it on every provider: the agent's words, then how to take
 * the call, in the agent's language with the provider's default voice (the agent's voice names
 * one of our speech engine's voices, which the provider's speech verb may not have).
 */
export function briefingSpeech(
  agent: Pick<AgentRow, 'language' | 'voice'> | null,
  brief: string,
): Speech {
  const text = `${brief} Press ${TRANSFER_ACCEPT_KEY} to take the call.`;
  return { ...agentSpeech(agent, text), voice: null };
}

const HANG_UP_DOCUMENT = `${XML_DECLARATION}<Response><Hangup/></Response>`;
/** An empty document: the reply to a callback whose answer the provider ignores. */
export const EMPTY_DOCUMENT = `${XML_DECLARATION}<Response/>`;
/** Room for reading a brief of up to 500 characters (about 15 characters a second). */
const BRIEF_READING_SECONDS = 35;

/**
 * provider_two: the TwiML a transferred call fetches; nothing to dial hangs up. The <Number>
 * reports its answer, the <Dial> its end to `action`, whose reply the caller hears next.
 */
export function twimlDial(dial: DialTarget | null): string {
  if (!dial) return HANG_UP_DOCUMENT;
  const { progressUrl: url } = dial;
  const briefing = dial.briefingUrl ? { url: dial.briefingUrl, method: 'POST' } : {};
  // Warm: the caller keeps hearing the ringing while the whisper plays to the new party.
  const ringing = dial.briefingUrl ? { answerOnBridge: 'true' } : {};
  return (
    `${XML_DECLARATION}<Response><Dial${attributes({ action: url, method: 'POST', callerId: dial.callerId, timeout: dial.ringTimeoutSeconds, ...ringing })}>` +
    `<Number${attributes({ ...briefing, statusCallbackEvent: 'answered', statusCallback: url, statusCallbackMethod: 'POST' })}>` +
    `${xmlEscape(dial.to)}</Number></Dial></Response>`
  );
}

/**
 * provider_two: the whisper a warm transfer's colleague hears (<Number url>) before being put
 * through: the brief inside a one-key <Gather>. The key goes to `decisionUrl`, whose empty reply
 * bridges the call; no key, the <Hangup/> after the <Gather> declines it. No brief: declined.
 */
export function twimlBriefing(briefing: Briefing | null): string {
  if (!briefing) return HANG_UP_DOCUMENT;
  return `${XML_DECLARATION}<Response><Gather${attributes({
    input: 'dtmf',
    numDigits: 1,
    timeout: TRANSFER_ACCEPT_SECONDS,
    action: briefing.decisionUrl,
    method: 'POST',
  })}>${speak('Say', briefing.speech)}</Gather><Hangup/></Response>`;
}

/**
 * provider_one: the confirmSound of a warm transfer's <Dial>, read to the colleague on answer
 * (Plivo allows only Play, Speak and Wait there); Plivo itself bridges on the confirmKey.
 */
export function plivoBriefing(briefing: Briefing | null): string {
  if (!briefing) return EMPTY_DOCUMENT;
  return `${XML_DECLARATION}<Response>${speak('Speak', briefing.speech)}</Response>`;
}

/** provider_two: the reply to the colleague's key: the accept key bridges, any other hangs up. */
export function twimlDecision(accepted: boolean): string {
  return accepted ? EMPTY_DOCUMENT : HANG_UP_DOCUMENT;
}

/**
 * provider_one: the Plivo XML a transferred call's A leg fetches; Plivo writes numbers without
 * `+`. Its callbackUrl hears the new party answer, its `action` the <Dial>'s end.
 */
export function plivoDial(dial: DialTarget | null): string {
  if (!dial) return HANG_UP_DOCUMENT;
  const digits = (e164: string) => e164.replace(/^\+/, '');
  const { progressUrl: url } = dial;
  return (
    `${XML_DECLARATION}<Response><Dial${attributes({
      action: url,
      method: 'POST',
      redirect: 'true',
      callbackUrl: url,
      callbackMethod: 'POST',
      callerId: digits(dial.callerId),
      timeout: dial.ringTimeoutSeconds,
      ...(dial.briefingUrl
        ? {
            // What the caller hears until the new party took the call (ringback, not silence).
            dialMusic: dial.holdUrl,
            confirmSound: dial.briefingUrl,
            confirmKey: TRANSFER_ACCEPT_KEY,
            // From the answer: the brief's reading, then the time to press the key.
            confirmTimeout: TRANSFER_ACCEPT_SECONDS + BRIEF_READING_SECONDS,
          }
        : {}),
    })}>` + `<Number>${xmlEscape(digits(dial.to))}</Number></Dial></Response>`
  );
}

/** Plivo's bidirectional stream; `keepCallAlive` holds the call until the stream ends. */
const plivoStream = ({ url, token }: StreamConnection): string =>
  `<Stream${attributes({
    bidirectional: 'true',
    keepCallAlive: 'true',
    contentType: STREAM_CONTENT_TYPE,
    extraHeaders: `token=${token}`,
  })}>${xmlEscape(url)}</Stream>`;

/**
 * provider_one: Plivo XML; `<Record recordSession>` records the whole call in the background,
 * then the stream, or the speech and a hang-up.
 */
export function plivoAnswer(plan: AnswerPlan): string {
  if (plan.kind === 'hangup') return HANG_UP_DOCUMENT;
  const record = plan.record
    ? `<Record${attributes({
        recordSession: 'true',
        redirect: 'false',
        maxLength: plan.record.maxSeconds,
        fileFormat: 'mp3',
        callbackUrl: plan.record.callbackUrl,
        callbackMethod: 'POST',
      })}/>`
    : '';
  const then =
    plan.kind === 'stream' ? plivoStream(plan.stream) : `${speak('Speak', plan.speech)}<Hangup/>`;
  return `${XML_DECLARATION}<Response>${record}${then}</Response>`;
}

/** provider_three has no answer document: the plan becomes a Call Control `speak` (or nothing). */
export function telnyxSpeech(
  plan: AnswerPlan,
): { text: string; voice: string; language: string } | null {
  if (plan.kind !== 'speak' || !plan.speech) return null;
  // Telnyx requires a voice: `female` unless the agent names one.
  return {
    text: plan.speech.text,
    voice: plan.speech.voice ?? 'female',
    language: plan.speech.language,
  };
}

/**
 * provider_three: the Call Control `streaming_start` that connects the stream. Telnyx keeps the
 * URL's query, so the token rides there; audio both ways as RTP PCMU (8 kHz μ-law).
 */
export function telnyxStreaming(plan: AnswerPlan): Record<string, string> | null {
  if (plan.kind !== 'stream') return null;
  const url = new URL(plan.stream.url);
  url.searchParams.set('token', plan.stream.token);
  return {
    stream_url: url.toString(),
    stream_track: 'inbound_track',
    stream_bidirectional_mode: 'rtp',
    stream_bidirectional_codec: 'PCMU',
  };
}
