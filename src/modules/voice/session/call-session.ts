import { describeUnknown } from '../../../common/describe-error';
import type { Integration } from '../../telephony/telephony.types';
import type { PacedStream } from '../audio/paced-stream';
import type { InboundMediaEvent, MediaOutput } from '../media/media-stream';
import type { CallContext } from './call-contexts';
import type { CallSignal } from './call-signals';
import { Conversation, GREETING_MARK } from './conversation';
import { hangUpAtProvider, liveCallId, streamNamesCall } from './live-call';
import { MachineWatch } from './machine-watch';
import type { SessionDependencies } from './session-dependencies';

/** The mark after a voicemail message left on a call already live (a late machine verdict). */
export const VOICEMAIL_MARK = 'voicemail-end';

/** A socket that has not presented its token by then is closed. */
export const START_TIMEOUT_MS = 10_000;

/**
 * After a transfer the provider ends the stream itself as the call leaves it (Twilio and Plivo
 * `stop`, Telnyx closes); a stream still open this much later is closed by us (never hung up).
 */
export const TRANSFER_CLOSE_MS = 5_000;

type State =
  'waiting' | 'opening' | 'speaking' | 'transferring' | 'transferred' | 'hanging-up' | 'ended';

/**
 * One call on the media stream: `start` with a valid token → the agent's greeting, synthesized
 * and paced out in real time → the conversation (listen, think, speak; see Conversation, which
 * speaks the greeting itself so the caller can interrupt it). With no model configured, or no
 * agent to talk (a voicemail message), the greeting is all: once its mark is played the call is
 * hung up over REST. A voicemail message waits for the machine's beep
 * first, so it is recorded rather than spoken over the machine's greeting; a machine verdict that
 * arrives once the call is live (CallSignals) stops the greeting or conversation and does the
 * same. A transfer (the model's transfer_call) hands the call to the provider and leaves the
 * stream without hanging up. Audio before the token is accepted is never looked at.
 */
export class CallSession {
  private state: State = 'waiting';
  /** The session's whole life. */
  private readonly abort = new AbortController();
  /** The greeting and the conversation: stopped when a machine turns out to be listening. */
  private readonly live = new AbortController();
  private readonly paced: PacedStream;
  private readonly startTimer: NodeJS.Timeout;
  private transferTimer: NodeJS.Timeout | undefined;
  private call: CallContext | undefined;
  private conversation: Conversation | undefined;
  private readonly machine = new MachineWatch();
  private streamCallId = '';
  private stopListening: (() => void) | undefined;
  /** Switched to the voicemail message once live. */
  private leavingVoicemail = false;

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
        if (this.state !== 'speaking') return;
        if (event.name === VOICEMAIL_MARK) void this.hangUp();
        else if (event.name === GREETING_MARK && !this.conversation && !this.leavingVoicemail)
          void this.hangUp();
        return;
      case 'stop':
        this.end();
        return;
      case 'audio':
        this.machine.hear(event.ulaw);
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
    clearTimeout(this.transferTimer);
    this.stopListening?.();
    this.abort.abort();
    this.live.abort();
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
      // Listening before loading: a verdict committed meanwhile is not lost.
      this.stopListening = this.deps.signals.listen(grant.phoneLogId, (signal) =>
        this.onSignal(signal),
      );
      const call = await this.deps.calls.load(grant, this.integration);
      if (!call) return this.refuse('unknown call');
      if (!streamNamesCall(start, grant, call)) return this.refuse('call mismatch');
      if (this.isEnded()) return;
      this.call = call;
      this.streamCallId = start.providerCallId;
      this.state = 'speaking';
      this.deps.logger.info(
        { integration: this.integration, call: call.phoneLogId },
        'Media stream opened',
      );
      if (!call.speech) return await this.hangUp();
      if (this.machine.machine && !call.afterBeep) return await this.leaveVoicemail();
      if (call.afterBeep) await this.awaitBeep();
      if (this.isEnded() || this.leavingVoicemail) return;
      if (this.converse(call)) {
        // The conversation speaks the greeting itself, so the caller can interrupt it.
        await this.conversation?.greet(call.speech.text);
        return;
      }
      await this.speak(call.speech.text, this.live.signal);
      if (this.state === 'speaking' && !this.leavingVoicemail) this.paced.mark(GREETING_MARK);
    } catch (error) {
      if (this.isEnded()) return;
      this.deps.logger.warn(
        { integration: this.integration, call: this.call?.phoneLogId, ...describeUnknown(error) },
        'Call session failed',
      );
      await this.hangUp();
    }
  }

  /** Starts the conversation when there is an agent and a model; false: the greeting is all. */
  private converse(call: CallContext): boolean {
    const { agent } = call;
    const services = this.deps.conversation;
    if (!agent || !services) return false;
    this.conversation = new Conversation(
      { ...call, agent },
      { ...services, logger: this.deps.logger },
      {
        paced: this.paced,
        output: this.output,
        speak: (text, signal, onAudio) =>
          this.speak(text, AbortSignal.any([signal, this.live.signal]), onAudio),
        hangUp: () => this.hangUp(),
        transfer: (to, reason) => this.transfer(to, reason),
      },
    );
    return true;
  }

  private onSignal(signal: CallSignal): void {
    // A transfer's new leg is CallTransfers' to hear.
    if (signal === 'transfer-answered' || signal === 'transfer-failed') return;
    this.machine.signal(signal);
    if (this.state === 'speaking' && this.call && !this.call.afterBeep) void this.leaveVoicemail();
  }

  /**
   * A machine answered a call already live: the greeting or conversation stops at once (and its
   * buffered audio at the provider), then the voicemail message follows the beep and the call
   * hangs up (the attempt ends `voicemail`). No message: hang up.
   */
  private async leaveVoicemail(): Promise<void> {
    const call = this.call;
    if (!call || this.leavingVoicemail) return;
    this.leavingVoicemail = true;
    this.live.abort();
    this.conversation?.end();
    this.conversation = undefined;
    this.paced.clear();
    this.output.clear();
    this.call = { ...call, agent: null, speech: call.voicemail, afterBeep: true };
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId },
      'Answering machine detected on the live call',
    );
    if (!call.voicemail) return this.hangUp();
    await this.awaitBeep();
    if (this.state !== 'speaking') return;
    await this.speak(call.voicemail.text, this.abort.signal);
    if (this.state === 'speaking') this.paced.mark(VOICEMAIL_MARK);
  }

  /**
   * Holds the voicemail message until the machine's greeting ends in its beep: heard by the
   * local detector or reported by the provider, whichever first (or the bound).
   */
  private async awaitBeep(): Promise<void> {
    const outcome = await this.machine.beep(this.abort.signal);
    if (outcome !== 'aborted')
      this.deps.logger.info(
        { integration: this.integration, call: this.call?.phoneLogId, outcome },
        'Voicemail message after the beep wait',
      );
  }

  /**
   * The model's transfer_call: the provider takes the call to `to` (CallTransfers). Done, the
   * session stops talking and listening and lets the provider end the stream; refused, the
   * conversation goes on (false).
   */
  private async transfer(to: string, reason: string | null): Promise<boolean> {
    const call = this.call;
    if (!call || this.state !== 'speaking') return false;
    this.state = 'transferring';
    const transferred = await this.deps.transfers.transfer({
      organizationId: call.organizationId,
      phoneLogId: call.phoneLogId,
      providerCallId: liveCallId(call, this.streamCallId),
      to,
      reason,
    });
    if (this.isEnded()) return transferred;
    if (!transferred) {
      this.state = 'speaking';
      return false;
    }
    this.state = 'transferred';
    this.live.abort();
    this.conversation?.end();
    this.conversation = undefined;
    this.paced.clear();
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId },
      'Call transferred; the stream is left to the provider',
    );
    this.transferTimer = setTimeout(() => this.close(), TRANSFER_CLOSE_MS);
    return true;
  }

  /** Synthesizes `text` in the call's voice into the paced stream, until `signal` aborts. */
  private async speak(text: string, signal: AbortSignal, onAudio?: () => void): Promise<void> {
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
      onAudio?.();
    }
  }

  /** Ends the call at the provider (a call already gone is fine), then the stream. */
  private async hangUp(): Promise<void> {
    const call = this.call;
    if (this.state !== 'speaking' || !call) return this.close();
    this.state = 'hanging-up';
    const { logger } = this.deps;
    await hangUpAtProvider(call, liveCallId(call, this.streamCallId), {
      logger,
      integration: this.integration,
    });
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
