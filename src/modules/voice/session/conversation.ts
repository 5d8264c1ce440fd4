import { performance } from 'node:perf_hooks';
import type { PinoLogger } from 'nestjs-pino';
import { type CallDependency, DependencyFailure } from '../../../common/dependency-failure';
import { describeUnknown } from '../../../common/describe-error';
import { detach } from '../../../common/detach';
import type { CollectedDigits } from '../../call-records/collected-digits';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { DncService } from '../../dnc/dnc.service';
import type { ChatModel, ChatToolCall } from '../../llm/chat-model';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import { dtmfTones } from '../audio/dtmf';
import type { SpeechToText } from '../speech/speech-engines';
import { AgentLines, type LineOutput } from './agent-lines';
import type { CallFlowCommand, CallFlowEvent, ReplyOutcome } from './call-flow';
import type { CallContext } from './call-contexts';
import type { TransferAsk } from './call-transfers';
import { type CallerTurn, CallerTurns } from './caller-turns';
import { isNoTurn, WARM_BRIEF_FALLBACK } from './conversation-phrases';
import { HeardMarks } from './heard-marks';
import { Keypad, keypadTurn, pressedKeysTurn } from './keypad';
import { Replies, type ReplyOutput } from './replies';
import type { Reply } from './reply';
import { SentenceSplitter } from './sentence-splitter';
import { TurnLog } from './turn-log';
import type { TurnPromptService } from './turn-prompt.service';
import { toolDigitEntry, toolKeys, toolReason, toolSummary, TurnTool } from './turn-tools';
import { DigitCollector, digitsTurn } from './digit-entry';
import { TimedTurn } from './timed-turn';
import type { TurnObserver } from './voice-turn-observer';

export interface ConversationTiming {
  /** How long a caller who stopped mid-sentence ("my number is…") may pause (TurnTracker's default). */
  unfinishedSilenceMs?: number;
}

/** The mark sent after the greeting's last frame; its echo means the caller heard it all. */
export const GREETING_MARK = 'greeting-end';

/** What a conversation needs of the services around it (injected: the session's unit tests fake them). */
export interface ConversationServices {
  vad: Pick<VoiceActivityDetector, 'open'>;
  stt: SpeechToText;
  chat: ChatModel;
  prompts: Pick<TurnPromptService, 'buildRequest'>;
  turns: Pick<PhoneLogsRepository, 'appendTurn'>;
  digits: Pick<CollectedDigits, 'record'>;
  dnc: Pick<DncService, 'recordOptOut'>;
  logger: PinoLogger;
  /** Turn latency, barge-ins and turn spans; none in unit tests. */
  observer?: TurnObserver;
}

/** What a conversation needs of its call session. */
export interface SessionSide extends ReplyOutput, LineOutput {
  /**
   * Hands the call on through the provider; false when that could not be done. `accepted`
   * runs once the provider took the request (Telnyx then rings the new party).
   */
  transfer(ask: TransferAsk, accepted: () => void): Promise<boolean>;
  /** What the caller said (the first words tell who or what answered: AnswerWatch). */
  heard(words: string): void;
  /** Presses keys through the provider; false when they must be played in band instead. */
  sendDigits(digits: string): Promise<boolean>;
}

/**
 * The greeting's first audio is not interrupted (the caller's "Hello?" that began before it, a
 * click or a breath on the line): a barge-in this soon after it started playing, or before it
 * plays, is let be; a caller who goes on talking still stops it once their turn has words.
 */
export const GREETING_SHIELD_MS = 400;

/** How long the last words before a transfer may take to be heard (their mark echoed). */
export const TRANSFER_HEARD_MS = 3_000;

type Agent = NonNullable<CallContext['agent']>;

/**
 * The agent's side of a live call, run by the call's state machine (call-flow.ts): it reports
 * what the caller and the services do as events, and carries out the commands that are its own
 * (`execute`). Every caller frame goes to the VAD and the recogniser (CallerTurns); a turn with
 * words waits among the unanswered ones until the flow asks for a reply, which answers them all:
 * the model's reply is split into sentences, each synthesized and queued with a mark as soon as it
 * is complete, while the model's stream is read on. Barge-in (interruptible agents) clears the
 * reply's audio and pauses it (Replies); a turn that was nothing resumes it, a real one cancels it,
 * and the stored agent turn keeps only the sentences whose marks the provider echoed (heard). The
 * model's tools: record_opt_out (recorded at once), end_call, transfer_call (after its words were
 * heard; refused, the tool is no longer offered).
 */
export class Conversation {
  private readonly caller: CallerTurns;
  private readonly heard = new HeardMarks();
  private readonly replies: Replies;
  private readonly log: TurnLog;
  private readonly lines: AgentLines;
  private readonly keypad = new Keypad((keys, startedAt) =>
    this.typedTurn(keypadTurn(keys), startedAt),
  );
  /** Caller turns heard and not yet answered: the next reply answers them all. */
  private readonly unanswered: Array<{ words: string; startedAt: string }> = [];
  /** The newest unanswered turn's trace: the reply's latency counts from its end. */
  private trace: TimedTurn | undefined;
  /** The entry the caller types for collect_digits, from the tool call to its end. */
  private digits: DigitCollector | undefined;
  /** The transfer the last reply asked for, carried out on the flow's `transfer`. */
  private transferTool: { call: ChatToolCall; lastMark: string | undefined } | undefined;
  private transferRefused = false;
  private replyCount = 0;
  /** The greeting: not begun, waiting for its first audio, playing since (performance.now()), over. */
  private greeting: { state: 'none' | 'pending' | 'done' } | { state: 'playing'; since: number } = {
    state: 'none',
  };
  /** A menu or a screening assistant answered: the model is told so from the next reply on. */
  private machineAnswered: 'ivr' | 'call_screening' | undefined;
  /** The callee spoke first: their next turn is their "Hello?", kept but not answered. */
  private openingWords = false;
  /** What an answer under way waits on, should it never come. */
  private waiting: CallDependency = 'stt';
  private ended = false;

  constructor(
    private readonly call: CallContext & { agent: Agent },
    private readonly services: ConversationServices,
    private readonly session: SessionSide,
    private readonly report: (event: CallFlowEvent) => void,
    timing: ConversationTiming = {},
  ) {
    this.log = new TurnLog(
      services.turns,
      call,
      (error) => this.warn(error, 'Storing a turn failed'),
      call.turns,
    );
    // Back from a transfer no one answered: the model must not promise it again.
    this.transferRefused = call.turns.length > 0;
    this.lines = new AgentLines(session, this.log);
    this.caller = new CallerTurns(
      services,
      call.agent.language,
      {
        speechStarted: () => report({ type: 'speechStarted' }),
        speechEnded: () => {
          this.waiting = 'stt';
          report({ type: 'speechEnded' });
        },
        bargeIn: () => {
          if (!this.greetingShielded()) report({ type: 'bargeIn' });
        },
        holding: () => report({ type: 'holding' }),
        turn: (turn) => this.heardTurn(turn),
        recognitionFailed: (error) => {
          this.warn(error, 'Recognition failed');
          this.failed(error, 'stt');
        },
      },
      timing.unfinishedSilenceMs,
    );
    this.replies = new Replies(
      session,
      this.heard,
      (reply, text) => {
        const latency = reply.trace?.latency;
        this.log.record({
          role: 'agent',
          text,
          startedAt: reply.startedAt,
          ...(latency && { latency }),
        });
      },
      services.observer,
      (reply) => {
        if (reply.name !== 'greeting') report({ type: 'replyStarted' });
        else if (this.greeting.state === 'pending')
          this.greeting = { state: 'playing', since: performance.now() };
      },
    );
  }

  /** Carries out a command of the call's flow that is the conversation's; false: not one. */
  execute(command: CallFlowCommand): boolean {
    switch (command.do) {
      case 'greet':
        // The callee spoke first: the turn their opening words make is heard, not answered.
        this.openingWords = command.afterCallee === true;
        this.run(this.greet(), 'tts', 'Greeting failed');
        return true;
      case 'reply':
        this.respond();
        return true;
      case 'pause':
        this.replies.bargeIn();
        return true;
      case 'resume':
        this.replies.resume();
        return true;
      case 'interrupt':
        // Whatever the agent says stops: the reply (what was heard of it is kept), or a line.
        this.replies.interrupt();
        if (this.session.paced.hasAudio) {
          this.session.paced.clear();
          this.session.output.clear();
        }
        return true;
      case 'say':
        this.run(
          this.lines.say(command.line).then(() => this.report({ type: 'lineDone' })),
          'tts',
          'Saying a line failed',
        );
        return true;
      case 'transfer':
        this.run(this.transfer(), 'telephony', 'Transfer failed');
        return true;
      case 'leaveVoicemail':
      case 'hangUp':
      case 'leave':
      case 'close':
        return false;
    }
  }

  /** A menu or a screening assistant answered the call (AnswerWatch): the agent talks to it. */
  answeredBy(outcome: 'ivr' | 'call_screening'): void {
    this.machineAnswered = outcome;
  }

  hear(ulaw: Buffer): void {
    if (!this.ended) this.caller.hear(ulaw);
  }

  /**
   * A key the caller pressed: part of the entry collect_digits asked for, whose end makes a turn;
   * else the keys of one pause reach the model as a turn of their own.
   */
  keyPressed(key: string): void {
    if (this.ended) return;
    if (!this.digits) {
      this.keypad.press(key);
      return;
    }
    this.report({ type: 'key' });
    if (this.digits.press(key)) this.finishDigits(true);
  }

  /**
   * The entry is over (complete, or ended by the caller's pause or words): its value is stored
   * on the phone log (call.completed's `collected_digits`; sealed with privateDigits) and its
   * turn goes to the model — told as a turn of its own (`report`), or left for the reply under
   * way to answer.
   */
  private finishDigits(report: boolean): void {
    const collector = this.digits;
    if (!collector) return;
    this.digits = undefined;
    const { entry, digits, startedAt } = collector;
    const { organizationId, phoneLogId, agent } = this.call;
    if (digits !== '')
      this.services.digits
        .record(organizationId, phoneLogId, entry.name, digits, agent.privateDigits)
        .catch((error: unknown) => this.warn(error, 'Storing the digits entered failed'));
    const words = digitsTurn(entry, digits, agent.privateDigits);
    if (report) this.typedTurn(words, startedAt);
    else this.unanswered.unshift({ words, startedAt }); // typed before the caller's words
  }

  /** A turn the caller typed: keys need no recognising, so its latency counts from its end. */
  private typedTurn(words: string, startedAt: string): void {
    const trace = new TimedTurn(this.services.observer?.turnEnded());
    trace.recognised();
    this.heardTurn({ words, startedAt, trace });
  }

  /** A mark the provider echoed: the audio before it was heard. */
  markPlayed(name: string): void {
    this.heard.add(name);
  }

  /** What an answer that never came was waiting on: the recogniser, the model or synthesis. */
  get waitingOn(): CallDependency {
    return this.waiting;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.replies.stop();
    this.caller.close();
    this.keypad.close();
    this.heard.release();
    this.trace?.end();
    // Words the caller said that no reply answered are part of the call all the same.
    for (const turn of this.unanswered.splice(0))
      this.log.record({ role: 'callee', text: turn.words, startedAt: turn.startedAt });
  }

  /**
   * The greeting as the first reply, sentence by sentence, so a caller who talks over it
   * interrupts it like any reply (an interruptible agent) and the stored turn keeps only what
   * they heard; its end is marked GREETING_MARK.
   */
  private async greet(): Promise<void> {
    this.greeting = { state: 'pending' };
    try {
      await this.sayGreeting();
    } finally {
      this.greeting = { state: 'done' };
    }
  }

  private async sayGreeting(): Promise<void> {
    const reply = this.replies.start('greeting');
    const splitter = new SentenceSplitter();
    await this.replies.say(reply, [
      ...splitter.push(this.call.speech?.text ?? ''),
      ...splitter.flush(),
    ]);
    const played =
      !reply.failure && !this.ended && (await this.replies.finish(reply, GREETING_MARK));
    if (reply.failure) throw asDependencyFailure(reply.failure, 'tts');
    if (played && !this.ended) this.report({ type: 'greeted' });
  }

  /** Whether a barge-in now would cut the greeting's first audio (GREETING_SHIELD_MS). */
  private greetingShielded(): boolean {
    const { greeting } = this;
    if (greeting.state === 'pending') return true;
    return greeting.state === 'playing' && performance.now() - greeting.since < GREETING_SHIELD_MS;
  }

  private heardTurn(turn: CallerTurn): void {
    if (!this.ended && turn.words.trim() !== '') this.session.heard(turn.words);
    if (this.openingWords && !this.ended) {
      this.openingWords = false;
      turn.trace?.end();
      if (!isNoTurn(turn.words))
        this.log.record({ role: 'callee', text: turn.words, startedAt: turn.startedAt });
      this.report({ type: 'turn', words: false });
      return;
    }
    if (this.ended || isNoTurn(turn.words)) {
      turn.trace?.end();
      if (!this.ended) this.report({ type: 'turn', words: false });
      return;
    }
    this.unanswered.push({ words: turn.words, startedAt: turn.startedAt });
    this.trace?.end();
    this.trace = turn.trace;
    this.report({ type: 'turn', words: true });
  }

  /** Answers every turn not answered yet, in one reply. */
  private respond(): void {
    this.finishDigits(false);
    for (const turn of this.unanswered.splice(0))
      this.log.record({ role: 'callee', text: turn.words, startedAt: turn.startedAt });
    const trace = this.trace;
    this.trace = undefined;
    const reply = this.replies.start(`reply-${(this.replyCount += 1)}`, trace);
    this.run(
      this.answer(reply).finally(() => trace?.end()),
      'llm',
      'Reply failed',
    );
  }

  private async answer(reply: Reply): Promise<void> {
    this.waiting = 'llm';
    const tools: ChatToolCall[] = [];
    let said = false;
    try {
      const { organizationId, agent, contact } = this.call;
      const request = await this.services.prompts.buildRequest(
        organizationId,
        // After a refused transfer the tool is withheld: the model must not promise it again.
        this.transferRefused ? { ...agent, transferNumber: null } : agent,
        contact,
        this.log.history,
        this.machineAnswered,
      );
      const splitter = new SentenceSplitter();
      for await (const event of this.services.chat.stream({ ...request, signal: reply.signal })) {
        if (reply.cancelled) break;
        if (event.kind === 'text') {
          reply.trace?.modelStarted();
          const sentences = splitter.push(event.text);
          said ||= sentences.length > 0;
          // Not awaited: the model's stream is read on while the sentences play (a paused reply
          // must not starve it into its idle timeout). A synthesis failure fails the reply.
          detach(this.replies.say(reply, sentences), {
            what: 'Speaking a reply',
            logger: this.services.logger,
          });
        }
        if (event.kind === 'tool-call') {
          tools.push(event.call);
          // Keys typed while the request is still being said count (type-ahead).
          const entry =
            event.call.function.name === String(TurnTool.CollectDigits)
              ? toolDigitEntry(event.call)
              : null;
          if (entry) this.digits = new DigitCollector(entry);
        }
      }
      const rest = splitter.flush();
      said ||= rest.length > 0;
      this.waiting = 'tts';
      await this.replies.say(reply, rest);
    } catch (error) {
      // Cancelled: interrupted by the caller, or the call moved on; the flow knows.
      if (!reply.cancelled) throw asDependencyFailure(error, 'llm');
    }
    if (reply.failure) throw asDependencyFailure(reply.failure, 'tts');
    if (reply.cancelled || this.ended) {
      // The caller cut the request short: nothing is being collected.
      this.digits = undefined;
      return;
    }
    const names = new Set(tools.map((tool) => tool.function.name));
    // The opt-out is recorded at once, before the reply has even finished playing.
    if (names.has(TurnTool.RecordOptOut)) await this.recordOptOut();
    const played = await this.replies.finish(reply);
    if (reply.failure) throw asDependencyFailure(reply.failure, 'tts');
    if (!played || this.ended) return;
    const keys = tools.find(({ function: f }) => f.name === String(TurnTool.PressKeys));
    const pressed = keys ? await this.pressKeys(toolKeys(keys)) : false;
    if (this.ended) return;
    const transfer = tools.find(({ function: f }) => f.name === String(TurnTool.TransferCall));
    if (transfer) this.transferTool = { call: transfer, lastMark: reply.sentences.at(-1)?.mark };
    this.report({
      type: 'replyDone',
      outcome: outcomeOf(names, transfer !== undefined, this.digits !== undefined, said || pressed),
    });
  }

  /**
   * press_keys: once the reply's words were heard, the keys are pressed through the provider as
   * telephone events (Plivo, Telnyx), else played into the call as tones (Twilio, or a request
   * that failed: the stream is G.711 on every provider), and kept in the transcript.
   */
  private async pressKeys(keys: string): Promise<boolean> {
    if (keys === '') return false;
    // After the words the far end hears first.
    await this.session.paced.drained();
    if (this.ended) return false;
    if (!(await this.session.sendDigits(keys))) {
      this.session.paced.enqueue(dtmfTones(keys));
      await this.session.paced.drained();
    }
    this.log.record({
      role: 'agent',
      text: pressedKeysTurn(keys),
      startedAt: new Date().toISOString(),
    });
    return true;
  }

  /**
   * Once the caller has heard what the agent said before it ("I'm transferring you"), the
   * provider takes the call. Refused (no number, the provider said no): the flow apologises and
   * the tool is no longer offered.
   */
  private async transfer(): Promise<void> {
    const tool = this.transferTool;
    this.transferTool = undefined;
    await this.heard.until(tool?.lastMark, TRANSFER_HEARD_MS);
    const { transferNumber: to, transferMode } = this.call.agent;
    let transferred = false;
    if (tool && to && !this.ended) {
      const reason = toolReason(tool.call);
      const briefing =
        transferMode === 'warm' ? (toolSummary(tool.call) ?? reason ?? WARM_BRIEF_FALLBACK) : null;
      try {
        transferred = await this.session.transfer({ to, reason, briefing }, () =>
          this.report({ type: 'transferAccepted' }),
        );
      } catch (error) {
        this.warn(error, 'Transfer failed');
      }
    }
    if (!transferred) this.transferRefused = true;
    if (!this.ended) this.report({ type: 'transferDone', transferred });
  }

  private async recordOptOut(): Promise<void> {
    try {
      await this.services.dnc.recordOptOut(this.call.organizationId, this.call.optOut);
    } catch (error) {
      this.warn(error, 'Recording the opt-out failed');
    }
  }

  /** Runs work off the flow; its failure is reported as the dependency failing. */
  private run(work: Promise<void>, dependency: CallDependency, what: string): void {
    detach(work, {
      what: `${what} (call ${this.call.phoneLogId})`,
      logger: this.services.logger,
      onFailure: (error) => this.failed(error, dependency),
    });
  }

  private failed(error: unknown, dependency: CallDependency): void {
    if (this.ended) return;
    const failure = asDependencyFailure(error, dependency);
    this.report({ type: 'failed', dependency: failure.dependency });
  }

  private warn(error: unknown, message: string): void {
    this.services.logger.warn({ call: this.call.phoneLogId, ...describeUnknown(error) }, message);
  }
}

function outcomeOf(
  names: Set<string>,
  transfer: boolean,
  collecting: boolean,
  said: boolean,
): ReplyOutcome {
  if (names.has(TurnTool.RecordOptOut)) return 'optOut';
  if (names.has(TurnTool.EndCall)) return 'endCall';
  if (transfer) return 'transfer';
  if (collecting) return 'collectDigits';
  return said ? 'answered' : 'empty';
}

/** An engine's error as the dependency that failed (engines that know say which themselves). */
function asDependencyFailure(error: unknown, dependency: CallDependency): DependencyFailure {
  if (error instanceof DependencyFailure) return error;
  return new DependencyFailure(dependency, error instanceof Error ? error.message : 'failed', {
    cause: error,
  });
}
