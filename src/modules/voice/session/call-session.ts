import type { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../../common/describe-error';
import { ProviderError } from '../../telephony/provider-error';
import type { Integration } from '../../telephony/telephony.types';
import type { OutboundPacer } from '../audio/outbound-pacer';
import type { PacedStream } from '../audio/paced-stream';
import type { InboundMediaEvent, MediaOutput } from '../media/media-stream';
import type { StreamTokens } from '../media/stream-tokens';
import type { TextToSpeech } from '../speech/speech-engines';
import { BeepWait } from './beep-wait';
import type { CallContext, CallContexts } from './call-contexts';
import { Conversation, type ConversationServices, GREETING_MARK } from './conversation';

/** A socket that has not presented its token by then is closed. */
export const START_TIMEOUT_MS = 10_000;

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
}

type State = 'waiting' | 'opening' | 'speaking' | 'hanging-up' | 'ended';

/**
 * One call on the media stream: `start` with a valid token → the agent's greeting, synthesized
 * and paced out in real time → the conversation (listen, think, speak; see Conversation, which
 * speaks the greeting itself so the caller can interrupt it). With no model configured, or no
 * agent to talk (a voicemail message), the greeting is all: once its mark is played the call is
 * hung up over REST. A voicemail message waits for the machine's beep first, so it is recorded
 * rather than spoken over the machine's greeting. Audio before the token is accepted is never
 * looked at.
 */
export class CallSession {
  private state: State = 'waiting';
  private readonly abort = new AbortController();
  private readonly paced: PacedStream;
  private readonly startTimer: NodeJS.Timeout;
  private call: CallContext | undefined;
  private conversation: Conversation | undefined;
  private beepWait: BeepWait | undefined;
  private streamCallId = '';

  constructor(
    private readonly integration: Integration,
    private readonly output: MediaOutput,
    private readonly deps: SessionDependencies,
    private readonly onEnded: (session: CallSession) => void,
  ) {
    this.paced = deps.pacer.open(output);
    this.startTimer = setTimeout(() => this.refuse('no start'), START_TIMEOUT_MS);
  }

  handle(event: InboundMediaEvent): void {
    switch (event.kind) {
      case 'start':
        if (this.state === 'waiting') void this.open(event);
        return;
      case 'mark':
        this.conversation?.markPlayed(event.name);
        if (event.name === GREETING_MARK && this.state === 'speaking' && !this.conversation)
          void this.hangUp();
        return;
      case 'stop':
        this.end();
        return;
      case 'audio':
        this.beepWait?.hear(event.ulaw);
        this.conversation?.hear(event.ulaw);
        return;
      case 'cleared':
        return;
    }
  }

  /** Stops everything and frees the call (stop, socket closed, shutdown). Idempotent. */
  end(): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    clearTimeout(this.startTimer);
    this.abort.abort();
    this.paced.close();
    this.conversation?.end();
    this.conversation = undefined;
    this.call = undefined;
    this.onEnded(this);
  }

  private async open(start: Extract<InboundMediaEvent, { kind: 'start' }>): Promise<void> {
    this.state = 'opening';
    clearTimeout(this.startTimer);
    try {
      const grant = await this.deps.tokens.consume(start.token);
      if (!grant) return this.refuse('bad token');
      const call = await this.deps.calls.load(grant, this.integration);
      if (!call) return this.refuse('unknown call');
      if (
        call.providerCallId &&
        start.providerCallId &&
        call.providerCallId !== start.providerCallId
      )
        return this.refuse('call mismatch');
      if (this.isEnded()) return;
      this.call = call;
      this.streamCallId = start.providerCallId;
      this.state = 'speaking';
      this.deps.logger.info(
        { integration: this.integration, call: call.phoneLogId },
        'Media stream opened',
      );
      if (!call.speech) return await this.hangUp();
      if (call.afterBeep) await this.awaitBeep();
      if (this.isEnded()) return;
      const { agent } = call;
      const services = this.deps.conversation;
      if (agent && services) {
        this.conversation = new Conversation(
          { ...call, agent },
          { ...services, logger: this.deps.logger },
          {
            paced: this.paced,
            output: this.output,
            speak: (text, signal) => this.speak(text, signal),
            hangUp: () => this.hangUp(),
          },
        );
        // The conversation speaks the greeting itself, so the caller can interrupt it.
        await this.conversation.greet(call.speech.text);
        return;
      }
      await this.speak(call.speech.text, this.abort.signal);
      if (this.state === 'speaking') this.paced.mark(GREETING_MARK);
    } catch (error) {
      if (this.isEnded()) return;
      this.deps.logger.warn(
        { integration: this.integration, call: this.call?.phoneLogId, ...describeUnknown(error) },
        'Call session failed',
      );
      await this.hangUp();
    }
  }

  /** Holds the voicemail message until the machine's greeting ends in its beep (or the bound). */
  private async awaitBeep(): Promise<void> {
    this.beepWait = new BeepWait(this.abort.signal);
    const outcome = await this.beepWait.outcome;
    this.beepWait = undefined;
    if (outcome !== 'aborted')
      this.deps.logger.info(
        { integration: this.integration, call: this.call?.phoneLogId, outcome },
        'Voicemail message after the beep wait',
      );
  }

  /** Synthesizes `text` in the call's voice into the paced stream, until `signal` aborts. */
  private async speak(text: string, signal: AbortSignal): Promise<void> {
    const speech = this.call?.speech;
    if (!speech) return;
    const voice = speech.voice ?? this.deps.defaultVoice;
    const both = AbortSignal.any([signal, this.abort.signal]);
    const audio = this.deps.tts.synthesize(text, {
      voice,
      language: speech.language,
      signal: both,
    });
    for await (const chunk of audio) {
      if (this.isEnded() || both.aborted) return;
      this.paced.enqueue(chunk);
    }
  }

  /** Ends the call at the provider (a call already gone is fine), then the stream. */
  private async hangUp(): Promise<void> {
    const call = this.call;
    if (this.isEnded() || this.state === 'hanging-up' || !call) return this.close();
    this.state = 'hanging-up';
    const callId = call.providerCallId ?? this.streamCallId;
    try {
      await call.provider.hangupCall(call.credentials, callId);
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === 'not_found'))
        this.deps.logger.warn(
          {
            integration: this.integration,
            call: call.phoneLogId,
            ...(error instanceof ProviderError
              ? { kind: error.kind, status: error.httpStatus }
              : describeUnknown(error)),
          },
          'Hang-up through the provider failed',
        );
    }
    this.close();
  }

  private refuse(reason: 'bad token' | 'unknown call' | 'call mismatch' | 'no start'): void {
    if (this.isEnded()) return;
    // Never the token: only which check failed.
    this.deps.logger.warn({ integration: this.integration, reason }, 'Media stream refused');
    this.close(true);
  }

  private close(refused = false): void {
    this.output.close(refused);
    this.end();
  }

  private isEnded(): boolean {
    return this.state === 'ended';
  }
}
