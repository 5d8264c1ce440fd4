import type { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../../common/describe-error';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { DncService } from '../../dnc/dnc.service';
import type { ChatModel, ChatToolCall } from '../../llm/chat-model';
import type { PacedStream } from '../audio/paced-stream';
import { TurnTracker, type TurnEvent } from '../audio/turn-tracker';
import type { VadStream } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { MediaOutput } from '../media/media-stream';
import type { RecognitionStream, SpeechToText } from '../speech/speech-engines';
import type { CallContext } from './call-contexts';
import {
  APOLOGY,
  isBackchannel,
  OPT_OUT_CONFIRMATION,
  SILENT_GOODBYE,
  STILL_THERE,
  TIME_UP,
} from './conversation-phrases';
import { SentenceSplitter } from './sentence-splitter';
import type { TurnPromptService } from './turn-prompt.service';
import { TurnTool } from './turn-tools';

export interface ConversationTiming {
  /** No caller speech this long after the agent finished: re-prompt once, then goodbye. */
  silenceMs: number;
}

export const DEFAULT_TIMING: ConversationTiming = { silenceMs: 8_000 };

/** What a conversation needs of the services around it (injected: the session's unit tests fake them). */
export interface ConversationServices {
  vad: Pick<VoiceActivityDetector, 'open'>;
  stt: SpeechToText;
  chat: ChatModel;
  prompts: Pick<TurnPromptService, 'buildRequest'>;
  turns: Pick<PhoneLogsRepository, 'appendTurn'>;
  dnc: Pick<DncService, 'recordOptOut'>;
  logger: PinoLogger;
}

/** What a conversation needs of its call session. */
export interface SessionSide {
  paced: PacedStream;
  output: Pick<MediaOutput, 'clear'>;
  /** Synthesizes `text` into the paced stream; resolves once all of it is queued. */
  speak(text: string, signal: AbortSignal): Promise<void>;
  hangUp(): Promise<void>;
}

type Agent = NonNullable<CallContext['agent']>;

/** One reply in progress: aborted by barge-in, a newer caller turn, or the end of the call. */
interface Reply {
  id: number;
  abort: AbortController;
  /** Each sentence queued, with the mark sent after it. */
  sentences: { text: string; mark: string }[];
  startedAt: string;
}

/**
 * Listening → thinking → speaking, after the greeting. Every caller frame goes to the VAD and
 * the recogniser; at the end of a caller turn the transcript (unless empty or a backchannel)
 * is stored and answered: the model's reply is split into sentences, each synthesized and
 * queued with a mark as soon as it is complete. One reply at a time: a caller turn that ends
 * while a reply is still in progress cancels it (an interruptible agent; else it waits for the
 * reply to play), and the next reply answers both turns (the conversation holds them).
 * Barge-in (interruptible agents) clears the reply's audio at once; the stored agent turn keeps
 * only the sentences whose marks the provider echoed (heard).
 */
export class Conversation {
  private readonly tracker = new TurnTracker();
  private readonly vad: VadStream;
  private readonly recognition: RecognitionStream;
  private readonly heard = new Set<string>();
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

  /** The greeting, already spoken by the session: the first turn of the conversation. */
  greeted(text: string, startedAt: string): void {
    this.record({ role: 'agent', text, startedAt });
  }

  hear(ulaw: Buffer): void {
    if (this.ended) return;
    this.vad.push(ulaw);
    this.recognition.write(ulaw);
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
    this.session.paced.clear();
    this.session.output.clear();
    this.cancel(reply);
  }

  private async onEndOfTurn(): Promise<void> {
    const startedAt = new Date().toISOString();
    let transcript: string;
    try {
      transcript = (await this.recognition.finish()).trim();
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
    this.replied = this.respond();
    await this.replied;
  }

  /** Ends a reply: stops the model and synthesis, keeps what the callee heard of it. */
  private cancel(reply: Reply): void {
    reply.abort.abort();
    this.storeReply(reply, (sentence) => this.heard.has(sentence.mark));
  }

  private async respond(): Promise<void> {
    const reply: Reply = {
      id: ++this.replies,
      abort: new AbortController(),
      sentences: [],
      startedAt: new Date().toISOString(),
    };
    this.reply = reply;
    const { signal } = reply.abort;
    const tools: ChatToolCall[] = [];
    try {
      const { organizationId, agent, contact } = this.call;
      const request = await this.services.prompts.buildRequest(
        organizationId,
        // Transfers are not carried out by the session yet: the model is not offered the tool,
        // so it never promises the caller a colleague who will not come.
        { ...agent, transferNumber: null },
        contact,
        this.history,
      );
      const splitter = new SentenceSplitter();
      for await (const event of this.services.chat.stream({ ...request, signal })) {
        if (signal.aborted) return;
        if (event.kind === 'text') await this.say(reply, splitter.push(event.text));
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
    if (names.has(TurnTool.RecordOptOut) || names.has(TurnTool.EndCall)) this.finishing = true;
    // The opt-out is recorded at once, before the reply has even finished playing.
    if (names.has(TurnTool.RecordOptOut)) await this.recordOptOut();
    await this.session.paced.drained();
    if (signal.aborted || this.ended) return;
    this.storeReply(reply, () => true);
    if (names.has(TurnTool.RecordOptOut)) await this.sayAndHangUp(OPT_OUT_CONFIRMATION);
    else if (names.has(TurnTool.EndCall)) await this.session.hangUp();
  }

  private async say(reply: Reply, sentences: string[]): Promise<void> {
    for (const text of sentences) {
      if (reply.abort.signal.aborted) return;
      await this.session.speak(text, reply.abort.signal);
      if (reply.abort.signal.aborted) return;
      const mark = `reply-${reply.id}-${reply.sentences.length + 1}`;
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
      await this.session.speak(STILL_THERE, new AbortController().signal);
    } catch (error) {
      // Runs off a timer: a throw here would be an unhandled rejection that ends the process
      // (every call on it). Unheard, the re-prompt does not count; the next silence says goodbye.
      this.warn(error, 'Re-prompt failed');
      this.armSilence();
      return;
    }
    this.record({ role: 'agent', text: STILL_THERE, startedAt: new Date().toISOString() });
    this.session.paced.mark('still-there');
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
