import type { CallDependency } from '../../../common/dependency-failure';
import { describeUnknown } from '../../../common/describe-error';
import { detach } from '../../../common/detach';
import type { Speech } from '../../call-progress/answer/answer-plan';
import { describeProviderFailure, ProviderError } from '../../telephony/provider-error';
import type { Integration } from '../../telephony/telephony.types';
import type { PacedStream } from '../audio/paced-stream';
import type { TimedWord } from '../speech/speech-engines';
import { playRingback } from '../audio/ringback';
import type { InboundMediaEvent, MediaOutput } from '../media/media-stream';
import { AgentLines } from './agent-lines';
import { MACHINE_OUTCOMES } from './answer-outcome';
import { AnswerWatch, type AnswerVerdict } from './answer-watch';
import { GreetingWords } from './greeting-words';
import {
  type CallFlowCommand,
  type CallFlowEvent,
  type CallFlowTiming,
  DEFAULT_FLOW_TIMING,
  initialFlow,
  type OpeningPlan,
  type SessionEndedBy,
} from './call-flow';
import { CallFlowRunner } from './call-flow-runner';
import type { TransferAsk } from './call-transfers';
import type { CallContext } from './call-contexts';
import type { CallSignal } from './call-signals';
import { Conversation, GREETING_MARK, type SessionSide } from './conversation';
import { AGENT_LINES } from './conversation-phrases';
import { hangUpAtProvider, liveCallId, streamNamesCall } from './live-call';
import { MachineWatch } from './machine-watch';
import type { SessionDependencies } from './session-dependencies';

/** The mark after a voicemail message; its echo means the machine recorded all of it. */
export const VOICEMAIL_MARK = 'voicemail-end';

/** A socket that has not presented its token by then is closed. */
export const START_TIMEOUT_MS = DEFAULT_FLOW_TIMING.openMs;

/**
 * After a transfer (or a hang-up) the provider ends the stream itself (Twilio and Plivo `stop`,
 * Telnyx closes); a stream still open this much later is closed by us (never hung up).
 */
export const TRANSFER_CLOSE_MS = DEFAULT_FLOW_TIMING.closeMs;

/** A stream that carried no caller audio this long is dead (CallFlowTiming.mediaQuietMs). */
export const MEDIA_QUIET_MS = DEFAULT_FLOW_TIMING.mediaQuietMs;

/**
 * The agent says its time-up line this long before the agent's maxCallSeconds, counted from the
 * answer as the provider counts the limit it was given, so the line is heard before the provider
 * cuts the call.
 */
export const TIME_UP_LEAD_MS = 10_000;

/**
 * One call on the media stream, run by its state machine (call-flow.ts, CallFlowRunner): `start`
 * with a valid token → the greeting, synthesized and paced out in real time → the conversation
 * (Conversation: listen, think, speak) or, with no model or no agent to talk, the hang-up once
 * the greeting was heard. A machine that answers hears the voicemail message after its beep. The
 * session reports what the stream and the provider say as events and carries out the commands
 * that are its own: the greeting alone, lines outside a conversation, the voicemail message, the
 * hang-up (its reason recorded first), leaving a transferred call, closing the stream. Every piece
 * of work it starts off the flow comes back as an event when it fails. Audio before the token is
 * accepted is never looked at.
 */
export class CallSession {
  private readonly flow: CallFlowRunner;
  /** The session's whole life. */
  private readonly abort = new AbortController();
  /** What the session itself says (a greeting alone): stopped when the flow interrupts it. */
  private voice = new AbortController();
  private readonly paced: PacedStream;
  private readonly lines: AgentLines;
  private readonly machine = new MachineWatch();
  private readonly answer = new AnswerWatch((verdict) => this.answered(verdict));
  /** AnswerWatch's own words, where the recogniser has a first-turn model (else the turns'). */
  private readonly greeting: GreetingWords | undefined;
  private call: CallContext | undefined;
  private conversation: Conversation | undefined;
  private streamCallId = '';
  private stopListening: (() => void) | undefined;
  private opening = false;
  /** The provider said a fax machine answered. */
  private faxed = false;
  private ended = false;
  private handedOff = false;
  /** performance.now() of the caller's last frame. */
  private lastAudioAt = 0;
  private callerHeard = false;
  private watchingMedia = false;
  /** The call's beginning, held until the caller's first frame (CallFlowTiming.firstFrameMs). */
  private begin: (() => void) | undefined;

  constructor(
    private readonly integration: Integration,
    private readonly output: MediaOutput,
    private readonly deps: SessionDependencies,
    private readonly onEnded: (session: CallSession) => void,
    private readonly timing: CallFlowTiming = deps.timing ?? DEFAULT_FLOW_TIMING,
  ) {
    this.paced = deps.pacer.open(output);
    if (deps.greetings)
      this.greeting = new GreetingWords(this.answer, deps.greetings, this.abort.signal, (error) =>
        deps.logger.warn(
          { integration, reason: error instanceof Error ? error.message : String(error) },
          'Greeting not transcribed: its length decides',
        ),
      );
    this.lines = new AgentLines(this.side(), null);
    this.flow = new CallFlowRunner(initialFlow(), timing, (command) => this.execute(command));
  }

  /** The call's phase (call-flow.ts). */
  get phase(): string {
    return this.flow.state.phase;
  }

  /**
   * The call this stream carries, once its token proved which, until it goes to another party
   * (then its end is theirs): a drain waits for its attempt to end.
   */
  get heldCall(): { organizationId: string; phoneLogId: string } | undefined {
    return this.handedOff ? undefined : this.call;
  }

  handle(event: InboundMediaEvent): void {
    switch (event.kind) {
      case 'start':
        if (!this.opening && !this.ended) {
          this.opening = true;
          this.run(this.open(event), 'media', 'Call session failed to open');
        }
        return;
      case 'mark':
        this.conversation?.markPlayed(event.name);
        this.progress();
        if (event.name === VOICEMAIL_MARK) this.flow.dispatch({ type: 'voicemailDone' });
        else if (event.name === GREETING_MARK && !this.conversation)
          this.flow.dispatch({ type: 'greeted' });
        return;
      case 'stop':
        this.flow.dispatch({ type: 'streamStopped' });
        return;
      case 'audio':
        this.lastAudioAt = performance.now();
        this.callerHeard = true;
        if (this.call) this.watchMedia();
        this.begin?.();
        this.machine.hear(event.ulaw);
        if (this.call) {
          this.greeting?.hear(event.ulaw);
          this.answer.hear(event.ulaw);
        }
        this.conversation?.hear(event.ulaw);
        return;
      case 'dtmf':
        this.conversation?.keyPressed(event.digit);
        return;
      case 'cleared':
        return;
    }
  }

  /**
   * The socket closed (or failed) without the provider's `stop`: the call may still be up at
   * the provider with nobody on its stream, so it is hung up there.
   */
  lost(): void {
    this.flow.dispatch({ type: 'mediaLost' });
    this.end();
  }

  /** The process drains and its grace period has passed: last words, then the hang-up. */
  drain(): void {
    this.flow.dispatch({ type: 'drain' });
  }

  /** Stops everything and frees the call at once (shutdown, the end of the flow). Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.flow.stop();
    this.stopListening?.();
    this.abort.abort();
    this.paced.close();
    this.conversation?.end();
    this.conversation = undefined;
    this.onEnded(this);
  }

  private execute(command: CallFlowCommand): void {
    if (this.conversation?.execute(command)) return;
    switch (command.do) {
      case 'greet':
        this.run(this.greetAlone(), 'tts', 'Greeting failed');
        return;
      case 'say':
        this.run(
          this.lines.say(command.line).then(() => this.flow.dispatch({ type: 'lineDone' })),
          'tts',
          'Saying a line failed',
        );
        return;
      case 'interrupt':
        // Outside a conversation what plays is the greeting or a line: it stops.
        this.stopAudio();
        return;
      case 'leaveVoicemail':
        this.run(this.leaveVoicemail(), 'tts', 'Voicemail message failed');
        return;
      case 'hangUp':
        this.run(
          this.hangUp(command.endedBy, command.dependency).then(() =>
            this.flow.dispatch({ type: 'hungUp' }),
          ),
          'telephony',
          'Hang-up failed',
        );
        return;
      case 'leave':
        this.leave();
        return;
      case 'close':
        if (command.refused && !this.opening)
          this.deps.logger.warn(
            { integration: this.integration, reason: 'no start' },
            'Media stream refused',
          );
        this.output.close(command.refused);
        this.end();
        return;
      case 'reply':
      case 'pause':
      case 'resume':
      case 'transfer':
        // Only a conversation answers, pauses or transfers: none is under way.
        return;
    }
  }

  private async open(start: Extract<InboundMediaEvent, { kind: 'start' }>): Promise<void> {
    const grant = await this.deps.tokens.consume(start.token);
    if (!grant) return this.refuse('bad token');
    // Listening before loading: a verdict committed meanwhile is not lost.
    this.stopListening = this.deps.signals.listen(grant.phoneLogId, (signal) =>
      this.onSignal(signal),
    );
    const call = await this.deps.calls.load(grant, this.integration);
    if (!call) return this.refuse('unknown call');
    if (!streamNamesCall(start, grant, call)) return this.refuse('call mismatch');
    if (this.ended) return;
    this.call = call;
    this.streamCallId = start.providerCallId;
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId },
      'Media stream opened',
    );
    const plan = this.plan(call);
    const opened = () => {
      this.begin = undefined;
      if (plan === 'converse' || plan === 'resume') this.converse(call);
      this.flow.dispatch({
        type: 'opened',
        plan,
        interruptible: call.agent?.interruptible ?? true,
        calleeFirstMs:
          call.agent?.firstSpeaker === 'callee' ? call.agent.calleeFirstWaitMs : undefined,
      });
    };
    if (this.callerHeard || plan === 'noMessage' || plan === 'silent') return opened();
    this.begin = opened;
    this.flow.after('firstFrame', this.timing.firstFrameMs, () => {
      if (!this.begin) return;
      this.deps.logger.warn(
        { integration: this.integration, call: call.phoneLogId },
        'No caller audio since the stream started: the call begins without it',
      );
      this.begin();
    });
  }

  private plan(call: CallContext): OpeningPlan {
    if (this.faxed) return 'noMessage';
    if (!call.speech) return 'silent';
    if (call.afterBeep || this.machine.machine) return 'voicemail';
    if (!call.agent || !this.deps.conversation) return 'greet';
    return call.turns.length > 0 ? 'resume' : 'converse';
  }

  /** Starts the conversation (its time limit too): the flow's greeting is its first reply. */
  private converse(call: CallContext): void {
    const { agent } = call;
    const services = this.deps.conversation;
    if (!agent || !services) return;
    this.conversation = new Conversation(
      { ...call, agent },
      { ...services, logger: this.deps.logger },
      this.side(),
      (event) => this.onConversation(event),
    );
    const limitMs = agent.maxCallSeconds * 1_000;
    const sinceAnswer = call.answeredAt ? Date.now() - call.answeredAt.getTime() : 0;
    // A short limit (tests, demos) keeps at least half of itself before the time-up line.
    const dueMs = Math.max(limitMs / 2, limitMs - TIME_UP_LEAD_MS) - Math.max(0, sinceAnswer);
    this.flow.after('timeUp', Math.max(0, dueMs), { type: 'timeUp' });
  }

  private onConversation(event: CallFlowEvent): void {
    // The agent's own lines are synthesized once the greeting is out of the way (LineAudio).
    if (event.type === 'greeted') this.warmLines();
    this.flow.dispatch(event);
  }

  private warmLines(): void {
    const speech = this.call?.speech;
    if (!speech) return;
    detach(
      this.deps.lines.warm(
        Object.values(AGENT_LINES),
        speech.voice ?? this.deps.defaultVoice,
        speech.language,
        this.abort.signal,
      ),
      { what: 'Synthesizing the agent lines', logger: this.deps.logger },
    );
  }

  /** What the conversation and the lines need of the session. */
  private side(): SessionSide {
    return {
      paced: this.paced,
      output: this.output,
      speak: (text, signal, onAudio, onWords) =>
        this.speak(text, signal, onAudio, this.call?.speech, onWords),
      speakLine: (text) => this.speakLine(text),
      transfer: (ask, accepted) => this.transfer(ask, accepted),
      heard: (words) => {
        if (!this.greeting) this.answer.heard(words);
      },
      sendDigits: (digits) => this.sendDigits(digits),
    };
  }

  /**
   * Keys through the provider's API; false (played in band then) where it has none, or refused
   * them. A request that may have reached it (timed out, cut, a 5xx) counts as pressed: keys
   * pressed twice choose wrong in a menu, one missed the menu asks for again.
   */
  private async sendDigits(digits: string): Promise<boolean> {
    const call = this.call;
    if (!call) return false;
    try {
      return await call.provider.sendDigits(
        call.credentials,
        liveCallId(call, this.streamCallId),
        digits,
      );
    } catch (error) {
      const refused = error instanceof ProviderError && error.provesNotActed;
      this.deps.logger.warn(
        { integration: this.integration, call: call.phoneLogId, ...describeProviderFailure(error) },
        refused
          ? 'The provider did not press the keys: played in band'
          : 'Pressing keys through the provider may have failed: not played again',
      );
      return !refused;
    }
  }

  /**
   * Who or what answered, as the first seconds told: recorded; a voicemail greeting gets the
   * voicemail message after its beep (as a provider's verdict would), a full mailbox or a fax
   * the hang-up; a menu or a screening assistant what the agent says (onIvr, onCallScreening:
   * the conversation, told what answered, or the hang-up); a person or no telling, the
   * conversation.
   */
  private answered(verdict: AnswerVerdict): void {
    const call = this.call;
    if (!call || this.ended || this.faxed) return;
    const machine = MACHINE_OUTCOMES.has(verdict.outcome);
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId, ...verdict },
      'Answer outcome',
    );
    detach(
      this.deps.endings.recordAnswerOutcome(
        call.organizationId,
        call.phoneLogId,
        verdict.outcome,
        verdict.afterMs,
        machine,
      ),
      { what: 'Recording who answered', logger: this.deps.logger },
    );
    if (call.afterBeep || this.machine.machine) return;
    if (machine) {
      this.machine.signal(this.answer.beepHeard ? 'greeting-ended' : 'machine');
      this.flow.dispatch({ type: 'machine', message: verdict.outcome === 'voicemail' });
      return;
    }
    const { agent } = call;
    if (verdict.outcome !== 'ivr' && verdict.outcome !== 'call_screening') return;
    const leave =
      verdict.outcome === 'ivr' ? agent?.onIvr === 'hang_up' : agent?.onCallScreening === 'hang_up';
    if (leave) this.flow.dispatch({ type: 'machine', message: false, endedBy: 'agent' });
    else this.conversation?.answeredBy(verdict.outcome);
  }

  private onSignal(signal: CallSignal): void {
    // A transfer's new leg is CallTransfers' to hear.
    if (signal === 'transfer-answered' || signal === 'transfer-failed') return;
    // A fax takes no message: hung up on; what the session hears of it no longer matters.
    if (signal === 'fax') this.faxed = true;
    this.machine.signal(signal === 'fax' ? 'machine' : signal);
    if (!this.call) return;
    if (signal === 'fax') this.flow.dispatch({ type: 'machine', message: false });
    else if (!this.call.afterBeep) this.flow.dispatch({ type: 'machine' });
  }

  /** The greeting of a call without a conversation; its mark's echo is the flow's `greeted`. */
  private async greetAlone(): Promise<void> {
    const speech = this.call?.speech;
    if (!speech) return;
    const { signal } = this.voice;
    await this.speak(speech.text, signal);
    if (!signal.aborted) this.paced.mark(GREETING_MARK);
  }

  /**
   * A machine answered: whatever plays stops (its buffered audio at the provider too), then the
   * voicemail message follows the beep; its mark's echo is the flow's `voicemailDone`. No
   * message: the flow hangs up at once.
   */
  private async leaveVoicemail(): Promise<void> {
    const call = this.call;
    if (!call) return;
    this.conversation?.end();
    this.conversation = undefined;
    const message = call.afterBeep ? call.speech : call.voicemail;
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId },
      'Answering machine: voicemail message after the beep',
    );
    if (!message) return this.flow.dispatch({ type: 'voicemailDone' });
    const outcome = await this.machine.beep(this.abort.signal);
    if (outcome === 'aborted' || this.ended) return;
    this.deps.logger.info(
      { integration: this.integration, call: call.phoneLogId, outcome },
      'Voicemail message after the beep wait',
    );
    await this.speak(message.text, this.abort.signal, undefined, message);
    this.paced.mark(VOICEMAIL_MARK);
  }

  /**
   * The model's transfer_call: the provider takes the call to `to` (CallTransfers). Done, the
   * flow leaves the stream to the provider; refused, the conversation goes on.
   */
  private async transfer(ask: TransferAsk, accepted: () => void) {
    const call = this.call;
    if (!call) return false;
    let stopRinging: (() => void) | undefined;
    try {
      return await this.deps.transfers.transfer({
        ...ask,
        organizationId: call.organizationId,
        phoneLogId: call.phoneLogId,
        providerCallId: liveCallId(call, this.streamCallId),
        accepted: (holdMs) => {
          accepted();
          // A caller left on the stream while the new party is rung and briefed hears it ring.
          if (holdMs !== null && !this.ended) stopRinging = playRingback(this.paced, holdMs);
        },
      });
    } finally {
      stopRinging?.();
    }
  }

  /** The call went to another party: stop talking and listening; the provider ends the stream. */
  private leave(): void {
    this.handedOff = true;
    this.conversation?.end();
    this.conversation = undefined;
    this.paced.clear();
    this.deps.logger.info(
      { integration: this.integration, call: this.call?.phoneLogId },
      'Call transferred; the stream is left to the provider',
    );
  }

  /** Synthesizes `text` in the call's voice into the paced stream, until `signal` aborts. */
  private async speak(
    text: string,
    signal: AbortSignal,
    onAudio?: (chunk: Uint8Array) => void,
    speech: Speech | null | undefined = this.call?.speech,
    onWords?: (words: TimedWord[]) => void,
  ): Promise<void> {
    if (!speech) return;
    const both = AbortSignal.any([signal, this.abort.signal]);
    const audio = this.deps.tts.synthesize(text, {
      voice: speech.voice ?? this.deps.defaultVoice,
      language: speech.language,
      signal: both,
      onWords,
    });
    for await (const chunk of audio) {
      if (this.ended || both.aborted) return;
      this.paced.enqueue(chunk);
      onAudio?.(chunk);
      this.progress();
    }
  }

  /** One of the agent's own lines: kept audio at once (LineAudio), else synthesized and kept. */
  private async speakLine(text: string): Promise<void> {
    const speech = this.call?.speech;
    if (!speech) return;
    const voice = speech.voice ?? this.deps.defaultVoice;
    const kept = this.deps.lines.get(text, voice, speech.language);
    if (kept) {
      this.paced.enqueue(kept);
      this.progress();
      return;
    }
    const chunks: Buffer[] = [];
    await this.speak(text, this.abort.signal, (chunk) => chunks.push(Buffer.from(chunk)), speech);
    if (!this.ended) this.deps.lines.keep(text, voice, speech.language, Buffer.concat(chunks));
  }

  private progress(): void {
    this.flow.dispatch({ type: 'progress', aheadMs: this.paced.aheadMs });
  }

  /**
   * Records why the session ended the call (the phone log and the call's event say it), then
   * ends it at the provider; a call already gone is fine.
   */
  private async hangUp(endedBy: SessionEndedBy, named?: CallDependency): Promise<void> {
    const call = this.call;
    if (!call) return;
    const dependency =
      endedBy === 'service_failure' ? (named ?? this.conversation?.waitingOn ?? 'llm') : undefined;
    this.deps.observer?.sessionEnded(endedBy, dependency);
    await this.deps.endings
      .recordSessionEnd(call.organizationId, call.phoneLogId, endedBy, dependency ?? null)
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { call: call.phoneLogId, ...describeUnknown(error) },
          'Recording why the call ended failed',
        ),
      );
    await hangUpAtProvider(call, liveCallId(call, this.streamCallId), {
      logger: this.deps.logger,
      integration: this.integration,
    });
  }

  /**
   * From the caller's first frame on, checks every second that their audio still arrives
   * (mediaQuietMs). A stream that never carried any is left to the socket's ping (MediaGateway).
   */
  private watchMedia(): void {
    if (this.watchingMedia) return;
    this.watchingMedia = true;
    const check = () => {
      if (performance.now() - this.lastAudioAt > this.timing.mediaQuietMs) {
        this.deps.logger.warn(
          { integration: this.integration, call: this.call?.phoneLogId },
          'No caller audio on the media stream: ending the call',
        );
        this.flow.dispatch({ type: 'mediaLost' });
      } else this.flow.after('media', 1_000, check);
    };
    this.flow.after('media', 1_000, check);
  }

  /** Stops what the session says and drops its audio, at the provider too. */
  private stopAudio(): void {
    this.voice.abort();
    this.voice = new AbortController();
    if (!this.paced.hasAudio) return;
    this.paced.clear();
    this.output.clear();
  }

  /** Runs work off the flow; when it fails, the flow hears that `dependency` failed. */
  private run(work: Promise<void>, dependency: CallDependency, what: string): void {
    detach(work, {
      what: `${what} (${this.integration} call ${this.call?.phoneLogId ?? 'opening'})`,
      logger: this.deps.logger,
      onFailure: () => {
        if (!this.ended) this.flow.dispatch({ type: 'failed', dependency });
      },
    });
  }

  private refuse(reason: 'bad token' | 'unknown call' | 'call mismatch'): void {
    if (this.ended) return;
    // Never the token: only which check failed.
    this.deps.logger.warn({ integration: this.integration, reason }, 'Media stream refused');
    this.flow.dispatch({ type: 'refused' });
  }
}
