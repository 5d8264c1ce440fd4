import type { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../../common/describe-error';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { DncService } from '../../dnc/dnc.service';
import type { ChatModel, ChatToolCall } from '../../llm/chat-model';
import { decodeUlaw } from '../audio/g711';
import type { PacedStream } from '../audio/paced-stream';
import { rmsLevel } from '../audio/speech-span';
import { TurnTracker, type TurnEvent } from '../audio/turn-tracker';
import type { VadStream } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import { FRAME_BYTES, FRAME_MS, type MediaOutput } from '../media/media-stream';
import type { RecognitionStream, SpeechToText } from '../speech/speech-engines';
import type { CallContext } from './call-contexts';
import {
  APOLOGY,
  isBackchannel,
  OPT_OUT_CONFIRMATION,
  SILENT_GOODBYE,
  STILL_THERE,
  TIME_UP,
  TRANSFER_FAILED,
} from './conversation-phrases';
import type { TurnObserver, TurnTrace } from './voice-turn-observer';
import { SentenceSplitter } from './sentence-splitter';
import type { TurnPromptService } from './turn-prompt.service';
import { HeardMarks } from './heard-marks';
import { toolReason, TurnTool } from './turn-tools';

export interface ConversationTiming {
  /** No caller speech this long after the agent finished: re-prompt once, then goodbye. */
  silenceMs: number;
}

export const DEFAULT_TIMING: ConversationTiming = { silenceMs: 8_000 };

/** The mark sent after the greeting's last frame; its echo means the caller heard it all. */
export const GREETING_MARK = 'greeting-end';

/** What a conversation needs of the services around it (injected: the session's unit tests fake them). */
export interface ConversationServices {
  vad: Pick<VoiceActivityDetector, 'open'>;
  stt: SpeechToText;
  chat: ChatModel;
  prompts: Pick<TurnPromptService, 'buildRequest'>;
  turns: Pick<PhoneLogsRepository, 'appendTurn'>;
  dnc: Pick<DncService, 'recordOptOut'>;
  logger: PinoLogger;
  /** Turn latency, barge-ins and turn spans; none in unit tests. */
  observer?: TurnObserver;
}

/** What a conversation needs of its call session. */
export interface SessionSide {
  paced: PacedStream;
  output: Pick<MediaOutput, 'clear'>;
  /**
   * Synthesizes `text` into the paced stream; resolves once all of it is queued. `onAudio` runs
   * when its first audio is queued.
   */
  speak(text: string, signal: AbortSignal, onAudio?: () => void): Promise<void>;
  hangUp(): Promise<void>;
  /** Hands the call to `to` through the provider; false when that could not be done. */
  transfer(to: string, reason: string | null): Promise<boolean>;
}

/** How long the last words before a transfer may take to be heard (their mark echoed). */
export const TRANSFER_HEARD_MS = 3_000;

type Agent = NonNullable<CallContext['agent']>;

/**
 * One reply in progress (the greeting is one too): aborted by barge-in, a newer caller turn, or
 * the end of the call.
 */
interface Reply {
  /** Names the marks sent after its sentences: `${name}-1`, `${name}-2`… */
  name: string;
  abort: AbortController;
  /** Each sentence queued, with the mark sent after it. */
  sentences: { text: string; mark: string }[];
  startedAt: string;
  /** The caller turn it answers (not for the greeting). */
  trace?: TurnTrace;
}

/**
 * Listening → thinking → speaking, after the greeting. Every caller frame goes to the VAD and
 * the recogniser; at the end of a caller turn the transcript (unless empty or a backchannel)
 * is stored and answered: the model's reply is split into sentences, each synthesized and
 * queued with a mark as soon as it is complete. One reply at a time: a caller turn that ends
 * while a reply is still in progress cancels it (an interruptible agent; else it waits for the
 * reply to play), and the next reply answers both turns (the conversation holds them).
 * Barge-in (interruptible agents) clears the reply's audio at once; the stored agent turn keeps
 * only the sentences whose marks the provider echoed (heard). The model's tools: record_opt_out,
 * end_call, transfer_call (after its words were heard; a refused transfer is apologised for, the
 * conversation goes on and the tool is no longer offered).
 */
export class Conversation {
  private readonly tracker = new TurnTracker();
  private readonly vad: VadStream;
  /** Audio time (ms) at the end of the caller frames heard: the VAD's windows share this clock. */
  private heardMs = 0;
  private readonly recognition: RecognitionStream;
  private readonly heard = new HeardMarks();
  private transferRefused = false;
  private readonly history: Pick<PhoneLogTurn, 'role' | 'text'>[] = [];
  private reply: Reply | undefined;
  /** Settles when the reply in progress has played and been stored (or was cancelled). */
  private replied: Promise<void> = Promise.resolve();
  private replies = 0;
  private ended = false;
  private finishing = false;
  /** Turns are written one after another, so they keep their order in the phone log. */
  private storing: Promise<void> = Promise.resolve();
  private silenceTimer: NodeJS.Timeout | undefined;
  private reprompted = false;
  private readonly timeLimit: NodeJS.Timeout;

  constructor(
    private readonly call: CallContext & { agent: Agent },
    private readonly services: ConversationServices,
    private readonly session: SessionSide,
    private readonly timing: ConversationTiming = DEFAULT_TIMING,
  ) {
    this.vad = services.vad.open((probability, atMs) =>
      this.onTurnEvents(this.tracker.update(probability, atMs)),
    );
    this.recognition = services.stt.open({ language: call.agent.language });
    this.timeLimit = setTimeout(() => void this.timeUp(), call.agent.maxCallSeconds * 1_000);
  }

  /**
   * Speaks the greeting as the first reply, sentence by sentence, so a caller who talks over it
   * interrupts it like any reply (an interruptible agent) and the stored turn keeps only what
   * they heard; its end is marked GREETING_MARK. Resolves once it has played or was cut off.
   */
  greet(text: string): Promise<void> {
    const reply = this.startReply('greeting');
    const splitter = new SentenceSplitter();
    const played = (async () => {
      await this.say(reply, [...splitter.push(text), ...splitter.flush()]);
      if (reply.abort.signal.aborted || this.ended) return;
      this.session.paced.mark(GREETING_MARK);
      await this.finishReply(reply);
    })();
    // A synthesis failure is the session's to handle; a turn waiting on the greeting only waits.
    this.replied = played.catch(() => undefined);
    return played;
  }

  hear(ulaw: Buffer): void {
    if (this.ended) return;
    this.vad.push(ulaw);
    this.recognition.write(ulaw);
    // Each frame's level dates the end of speech and checks the silence allowance (TurnTracker).
    this.heardMs += (ulaw.length * FRAME_MS) / FRAME_BYTES;
    this.onTurnEvents(this.tracker.frame(rmsLevel(decodeUlaw(ulaw)), this.heardMs));
  }

  /** A mark the provider echoed: the audio before it was heard, and the agent may be done. */
  markPlayed(name: string): void {
    this.heard.add(name);
    if (!this.reply && !this.tracker.speaking) this.armSilence();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timeLimit);
    clearTimeout(this.silenceTimer);
    this.reply?.abort.abort();
    this.vad.close();
    this.recognition.close();
    this.heard.release();
  }

  private onTurnEvents(events: TurnEvent[]): void {
    for (const event of events) {
      if (event.type === 'speech-start') clearTimeout(this.silenceTimer);
      if (event.type === 'barge-in') this.bargeIn();
      if (event.type === 'end-of-turn') void this.onEndOfTurn();
    }
  }

  private bargeIn(): void {
    const reply = this.reply;
    if (!reply || !this.call.agent.interruptible || this.finishing) return;
    this.interrupt(reply);
  }

  /** Drops the reply's audio at the provider too, and cancels it. */
  private interrupt(reply: Reply): void {
    this.services.observer?.bargedIn();
    this.session.paced.clear();
    this.session.output.clear();
    this.cancel(reply);
  }

  private async onEndOfTurn(): Promise<void> {
    const trace = this.services.observer?.turnEnded();
    try {
      await this.answerTurn(trace);
    } finally {
      trace?.end();
    }
  }

  private async answerTurn(trace: TurnTrace | undefined): Promise<void> {
    const startedAt = new Date().toISOString();
    let transcript: string;
    try {
      transcript = (await this.recognition.finish()).trim();
      trace?.recognised();
    } catch (error) {
      this.warn(error, 'Recognition failed');
      transcript = '';
    }
    if (this.ended || this.finishing || transcript === '' || isBackchannel(transcript)) return;
    // A caller turn that ends while the agent replies interrupts it (an interruptible agent),
    // or is answered once the reply has played (the others).
    if (this.reply && this.call.agent.interruptible) this.interrupt(this.reply);
    else if (this.reply) await this.replied;
    if (this.ended || this.finishing) return;
    this.record({ role: 'callee', text: transcript, startedAt });
    this.reprompted = false;
    this.replied = this.respond(trace);
    await this.replied;
  }

  /** Ends a reply: stops the model and synthesis, keeps what the callee heard of it. */
  private cancel(reply: Reply): void {
    reply.abort.abort();
    this.storeReply(reply, (sentence) => this.heard.has(sentence.mark));
  }

  private startReply(name: string): Reply {
    this.reply = {
      name,
      abort: new AbortController(),
      sentences: [],
      startedAt: new Date().toISOString(),
    };
    return this.reply;
  }

  /** Once every frame of the reply has gone out, stores all of it (unless it was cut off). */
  private async finishReply(reply: Reply): Promise<void> {
    await this.session.paced.drained();
    if (reply.abort.signal.aborted || this.ended) return;
    this.storeReply(reply, () => true);
  }

  private async respond(trace?: TurnTrace): Promise<void> {
    const reply = this.startReply(`reply-${++this.replies}`);
    reply.trace = trace;
    const { signal } = reply.abort;
    const tools: ChatToolCall[] = [];
    try {
      const { organizationId, agent, contact } = this.call;
      const request = await this.services.prompts.buildRequest(
        organizationId,
        // After a refused transfer the tool is withheld: the model must not promise it again.
        this.transferRefused ? { ...agent, transferNumber: null } : agent,
        contact,
        this.history,
      );
      const splitter = new SentenceSplitter();
      for await (const event of this.services.chat.stream({ ...request, signal })) {
        if (signal.aborted) return;
        if (event.kind === 'text') {
          trace?.modelStarted();
          await this.say(reply, splitter.push(event.text));
        }
        if (event.kind === 'tool-call') tools.push(event.call);
      }
      await this.say(reply, splitter.flush());
    } catch (error) {
      if (signal.aborted || this.ended) return;
      this.warn(error, 'Reply failed');
      await this.say(reply, [APOLOGY]).catch(() => undefined);
    }
    if (signal.aborted || this.ended) return;
    const names = new Set(tools.map((tool) => tool.function.name));
    const transfer = tools.find(({ function: f }) => f.name === String(TurnTool.TransferCall));
    if (names.has(TurnTool.RecordOptOut) || names.has(TurnTool.EndCall) || transfer)
      this.finishing = true;
    // The opt-out is recorded at once, before the reply has even finished playing.
    if (names.has(TurnTool.RecordOptOut)) await this.recordOptOut();
    await this.finishReply(reply);
    if (signal.aborted || this.ended) return;
    if (names.has(TurnTool.RecordOptOut)) await this.sayAndHangUp(OPT_OUT_CONFIRMATION);
    else if (names.has(TurnTool.EndCall)) await this.session.hangUp();
    else if (transfer) await this.transfer(reply, transfer);
  }

  /**
   * Once the caller has heard what the agent said before it ("I'm transferring you"), the
   * provider takes the call. Refused (no number, the provider said no): an apology, and the
   * conversation goes on, never dead air.
   */
  private async transfer(reply: Reply, tool: ChatToolCall): Promise<void> {
    await this.heard.until(reply.sentences.at(-1)?.mark, TRANSFER_HEARD_MS);
    if (this.ended) return;
    const to = this.call.agent.transferNumber;
    if (to && (await this.session.transfer(to, toolReason(tool)))) return;
    if (this.ended) return;
    this.transferRefused = true;
    this.finishing = false;
    await this.sayAside(TRANSFER_FAILED, 'transfer-refused');
  }

  /** Words of the agent's own outside a reply, stored as a turn; `mark` follows them. */
  private async sayAside(text: string, mark: string): Promise<void> {
    await this.session.speak(text, new AbortController().signal);
    this.record({ role: 'agent', text, startedAt: new Date().toISOString() });
    this.session.paced.mark(mark);
  }

  private async say(reply: Reply, sentences: string[]): Promise<void> {
    for (const text of sentences) {
      if (reply.abort.signal.aborted) return;
      await this.session.speak(text, reply.abort.signal, () => reply.trace?.firstAudio());
      if (reply.abort.signal.aborted) return;
      const mark = `${reply.name}-${reply.sentences.length + 1}`;
      reply.sentences.push({ text, mark });
      this.session.paced.mark(mark);
    }
  }

  private armSilence(): void {
    clearTimeout(this.silenceTimer);
    if (this.ended || this.finishing) return;
    this.silenceTimer = setTimeout(() => void this.onSilence(), this.timing.silenceMs);
  }

  /** The caller said nothing: ask once whether they are there, the second time say goodbye. */
  private async onSilence(): Promise<void> {
    if (this.ended || this.finishing || this.reply || this.tracker.speaking) return;
    if (this.reprompted) {
      this.finishing = true;
      return this.sayAndHangUp(SILENT_GOODBYE);
    }
    this.reprompted = true;
    try {
      await this.sayAside(STILL_THERE, 'still-there');
    } catch (error) {
      // Runs off a timer: a throw here would be an unhandled rejection that ends the process
      // (every call on it). Unheard, the re-prompt does not count; the next silence says goodbye.
      this.warn(error, 'Re-prompt failed');
      this.armSilence();
    }
  }

  /** The agent's maxCallSeconds: whatever is under way stops, and the call ends politely. */
  private async timeUp(): Promise<void> {
    if (this.ended || this.finishing) return;
    this.finishing = true;
    clearTimeout(this.silenceTimer);
    if (this.reply) this.interrupt(this.reply);
    await this.sayAndHangUp(TIME_UP);
  }

  private async recordOptOut(): Promise<void> {
    try {
      await this.services.dnc.recordOptOut(this.call.organizationId, this.call.optOut);
    } catch (error) {
      this.warn(error, 'Recording the opt-out failed');
    }
  }

  /**
   * Last words nobody may interrupt, then the end of the call, which comes even when the words
   * cannot be synthesized (also called off timers, where a throw would end the process).
   */
  private async sayAndHangUp(text: string): Promise<void> {
    try {
      await this.session.speak(text, new AbortController().signal);
      this.record({ role: 'agent', text, startedAt: new Date().toISOString() });
      await this.session.paced.drained();
    } catch (error) {
      this.warn(error, 'Last words failed');
    }
    await this.session.hangUp();
  }

  private storeReply(reply: Reply, kept: (sentence: Reply['sentences'][number]) => boolean): void {
    if (this.reply === reply) this.reply = undefined;
    const text = reply.sentences
      .filter(kept)
      .map((sentence) => sentence.text)
      .join(' ');
    if (text !== '') this.record({ role: 'agent', text, startedAt: reply.startedAt });
  }

  private record(turn: PhoneLogTurn): void {
    this.history.push({ role: turn.role, text: turn.text });
    this.storing = this.storing
      .then(() =>
        this.services.turns.appendTurn(this.call.organizationId, this.call.phoneLogId, turn),
      )
      .catch((error: unknown) => this.warn(error, 'Storing a turn failed'));
  }

  private warn(error: unknown, message: string): void {
    this.services.logger.warn({ call: this.call.phoneLogId, ...describeUnknown(error) }, message);
  }
}
