import type { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../../common/describe-error';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { DncService } from '../../dnc/dnc.service';
import type { ChatModel, ChatToolCall } from '../../llm/chat-model';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { SpeechToText } from '../speech/speech-engines';
import { type CallerTurn, CallerTurns } from './caller-turns';
import type { CallContext } from './call-contexts';
import {
  APOLOGY,
  isNoTurn,
  OPT_OUT_CONFIRMATION,
  SILENT_GOODBYE,
  STILL_THERE,
  TIME_UP,
  TRANSFER_FAILED,
} from './conversation-phrases';
import type { TurnObserver, TurnTrace } from './voice-turn-observer';
import { SentenceSplitter } from './sentence-splitter';
import type { TurnPromptService } from './turn-prompt.service';
import { AgentLines } from './agent-lines';
import { HeardMarks } from './heard-marks';
import { TurnLog } from './turn-log';
import { Replies, type ReplyOutput } from './replies';
import type { Reply } from './reply';
import { toolReason, TurnTool } from './turn-tools';

export interface ConversationTiming {
  /** No caller speech this long after the agent finished: re-prompt once, then goodbye. */
  silenceMs: number;
  /** How long a caller who stopped mid-sentence ("my number is…") may pause (TurnTracker's default). */
  unfinishedSilenceMs?: number;
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
export interface SessionSide extends ReplyOutput {
  hangUp(): Promise<void>;
  /** Hands the call to `to` through the provider; false when that could not be done. */
  transfer(to: string, reason: string | null): Promise<boolean>;
}

/** How long the last words before a transfer may take to be heard (their mark echoed). */
export const TRANSFER_HEARD_MS = 3_000;

type Agent = NonNullable<CallContext['agent']>;

/**
 * Listening → thinking → speaking, after the greeting. Every caller frame goes to the VAD and
 * the recogniser; a caller turn (CallerTurns: words that stop mid-sentence wait for the rest),
 * unless empty or a backchannel, is stored and answered: the model's reply is split into sentences, each synthesized and
 * queued with a mark as soon as it is complete. One reply at a time: a caller turn that ends
 * while a reply is still in progress cancels it (an interruptible agent; else it waits for the
 * reply to play), and the next reply answers both turns (the conversation holds them).
 * Barge-in (interruptible agents) clears the reply's audio at once and pauses it (Replies): a
 * turn that was nothing resumes it, a real one cancels it and the stored agent turn keeps only
 * the sentences whose marks the provider echoed (heard). The model's tools: record_opt_out,
 * end_call, transfer_call (after its words were heard; a refused transfer is apologised for, the
 * conversation goes on and the tool is no longer offered).
 */
export class Conversation {
  private readonly caller: CallerTurns;
  private readonly heard = new HeardMarks();
  private readonly replies: Replies;
  private readonly log: TurnLog;
  private readonly lines: AgentLines;
  private transferRefused = false;
  /** Settles when the reply in progress has played and been stored (or was cancelled). */
  private replied: Promise<void> = Promise.resolve();
  private replyCount = 0;
  private ended = false;
  private finishing = false;
  private silenceTimer: NodeJS.Timeout | undefined;
  private reprompted = false;
  private readonly timeLimit: NodeJS.Timeout;

  constructor(
    private readonly call: CallContext & { agent: Agent },
    private readonly services: ConversationServices,
    private readonly session: SessionSide,
    private readonly timing: ConversationTiming = DEFAULT_TIMING,
  ) {
    this.log = new TurnLog(services.turns, call, (error) =>
      this.warn(error, 'Storing a turn failed'),
    );
    this.lines = new AgentLines(session, this.log, (error, message) => this.warn(error, message));
    this.caller = new CallerTurns(
      services,
      call.agent.language,
      {
        speechStarted: () => clearTimeout(this.silenceTimer),
        bargeIn: () => this.bargeIn(),
        turn: (turn) => void this.answerTurn(turn),
        holding: () => this.interruptReply(),
        recognitionFailed: (error) => this.warn(error, 'Recognition failed'),
      },
      timing.unfinishedSilenceMs,
    );
    this.replies = new Replies(
      session,
      this.heard,
      (reply, text) => this.log.record({ role: 'agent', text, startedAt: reply.startedAt }),
      services.observer,
    );
    this.timeLimit = setTimeout(() => void this.timeUp(), call.agent.maxCallSeconds * 1_000);
  }

  /**
   * Speaks the greeting as the first reply, sentence by sentence, so a caller who talks over it
   * interrupts it like any reply (an interruptible agent) and the stored turn keeps only what
   * they heard; its end is marked GREETING_MARK. Resolves once it has played or was cut off.
   */
  greet(text: string): Promise<void> {
    const reply = this.replies.start('greeting');
    const splitter = new SentenceSplitter();
    const played = (async () => {
      await this.replies.say(reply, [...splitter.push(text), ...splitter.flush()]);
      if (this.ended) return;
      await this.replies.finish(reply, GREETING_MARK);
    })();
    // A synthesis failure is the session's to handle; a turn waiting on the greeting only waits.
    this.replied = played.catch(() => undefined);
    return played;
  }

  hear(ulaw: Buffer): void {
    if (!this.ended) this.caller.hear(ulaw);
  }

  /** A mark the provider echoed: the audio before it was heard, and the agent may be done. */
  markPlayed(name: string): void {
    this.heard.add(name);
    if (!this.replies.active && !this.caller.speaking) this.armSilence();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timeLimit);
    clearTimeout(this.silenceTimer);
    this.replies.stop();
    this.caller.close();
    this.heard.release();
  }

  private bargeIn(): void {
    if (!this.call.agent.interruptible || this.finishing) return;
    this.replies.bargeIn();
  }

  private async answerTurn({ words, startedAt, trace }: CallerTurn): Promise<void> {
    try {
      if (this.ended || this.finishing) return;
      // A false interruption: the reply it paused (if any) speaks on from what was not heard.
      if (isNoTurn(words)) return this.replies.resume();
      // A caller turn that ends while the agent replies interrupts it (an interruptible agent),
      // or is answered once the reply has played (the others).
      if (!this.interruptReply() && this.replies.active) await this.replied;
      if (this.ended || this.finishing) return;
      this.log.record({ role: 'callee', text: words, startedAt });
      this.reprompted = false;
      this.replied = this.respond(trace);
      await this.replied;
    } finally {
      trace?.end();
    }
  }

  /** The caller said words over the reply: an interruptible agent stops it. */
  private interruptReply(): boolean {
    if (!this.replies.active || !this.call.agent.interruptible || this.finishing) return false;
    this.replies.interrupt();
    return true;
  }

  private async respond(trace?: TurnTrace): Promise<void> {
    const reply = this.replies.start(`reply-${++this.replyCount}`, trace);
    const { signal } = reply;
    const tools: ChatToolCall[] = [];
    try {
      const { organizationId, agent, contact } = this.call;
      const request = await this.services.prompts.buildRequest(
        organizationId,
        // After a refused transfer the tool is withheld: the model must not promise it again.
        this.transferRefused ? { ...agent, transferNumber: null } : agent,
        contact,
        this.log.history,
      );
      const splitter = new SentenceSplitter();
      for await (const event of this.services.chat.stream({ ...request, signal })) {
        if (signal.aborted) return;
        if (event.kind === 'text') {
          trace?.modelStarted();
          await this.replies.say(reply, splitter.push(event.text));
        }
        if (event.kind === 'tool-call') tools.push(event.call);
      }
      await this.replies.say(reply, splitter.flush());
    } catch (error) {
      if (signal.aborted || this.ended) return;
      this.warn(error, 'Reply failed');
      await this.replies.say(reply, [APOLOGY]).catch(() => undefined);
    }
    if (signal.aborted || this.ended) return;
    const names = new Set(tools.map((tool) => tool.function.name));
    const transfer = tools.find(({ function: f }) => f.name === String(TurnTool.TransferCall));
    if (names.has(TurnTool.RecordOptOut) || names.has(TurnTool.EndCall) || transfer)
      this.finishing = true;
    // The opt-out is recorded at once, before the reply has even finished playing.
    if (names.has(TurnTool.RecordOptOut)) await this.recordOptOut();
    if (!(await this.replies.finish(reply)) || this.ended) return;
    if (names.has(TurnTool.RecordOptOut)) await this.lines.last(OPT_OUT_CONFIRMATION);
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
    await this.lines.aside(TRANSFER_FAILED, 'transfer-refused');
  }

  private armSilence(): void {
    clearTimeout(this.silenceTimer);
    // Held words are a turn still coming: their reply, not a re-prompt, follows the silence.
    if (this.ended || this.finishing || this.caller.holding) return;
    this.silenceTimer = setTimeout(() => void this.onSilence(), this.timing.silenceMs);
  }

  /** The caller said nothing: ask once whether they are there, the second time say goodbye. */
  private async onSilence(): Promise<void> {
    if (this.ended || this.finishing || this.replies.active) return;
    if (this.caller.speaking || this.caller.holding) return;
    if (this.reprompted) {
      this.finishing = true;
      return this.lines.last(SILENT_GOODBYE);
    }
    this.reprompted = true;
    try {
      await this.lines.aside(STILL_THERE, 'still-there');
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
    this.replies.interrupt();
    await this.lines.last(TIME_UP);
  }

  private async recordOptOut(): Promise<void> {
    try {
      await this.services.dnc.recordOptOut(this.call.organizationId, this.call.optOut);
    } catch (error) {
      this.warn(error, 'Recording the opt-out failed');
    }
  }

  private warn(error: unknown, message: string): void {
    this.services.logger.warn({ call: this.call.phoneLogId, ...describeUnknown(error) }, message);
  }
}
