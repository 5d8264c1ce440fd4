import { BeepDetector } from '../audio/beep-detector';
import { ulawRmsLevel } from '../audio/g711';
import { FRAME_MS } from '../media/media-stream';
import type { AnswerOutcome } from '@app/contracts';
import { machineKindOfWords, outcomeOfWords } from './answer-outcome';

export interface AnswerVerdict {
  outcome: AnswerOutcome;
  /** Audio time from the stream's first frame to the verdict. */
  afterMs: number;
  /** What decided: the greeting's words, a beep, a fax tone, the greeting's length, silence. */
  by: 'words' | 'beep' | 'fax tone' | 'short greeting' | 'long greeting' | 'silence';
}

export interface AnswerWatchOptions {
  /** A frame louder than this RMS (16-bit linear) carries voice. */
  voiceRms: number;
  /** A pause this long ends the greeting. */
  pauseMs: number;
  /** A greeting no longer than this, then the pause: a person ("Hello?", "Hi, this is Sam"). */
  personMaxMs: number;
  /**
   * A greeting at least this long with nothing machine-like in its words is a recording all the
   * same (people do not talk 3.5 s on end to answer the phone; Twilio's own threshold is 2.4 s):
   * voicemail. Between personMaxMs and this it is uncertain.
   */
  machineMinMs: number;
  /**
   * After a longer greeting ended, its words are awaited this long; words that say nothing
   * machine-like (or none) leave it to its length, and a beep heard later still makes an
   * uncertain one voicemail.
   */
  wordsWaitMs: number;
  /** Nothing heard by then (a silent line): uncertain. */
  silenceMs: number;
  /** A beep this long after the first frame no longer changes an uncertain verdict. */
  beepListenMs: number;
}

export const DEFAULT_ANSWER_WATCH: AnswerWatchOptions = {
  voiceRms: 500,
  pauseMs: 600,
  personMaxMs: 1_800,
  machineMinMs: 3_500,
  wordsWaitMs: 3_000,
  silenceMs: 4_000,
  beepListenMs: 30_000,
};

/** A fax machine answers with its CED tone: 2,100 Hz for 2.6–4 s. */
const FAX_TONE = { frequencies: [2_075, 2_100, 2_125], maxToneMs: 6_000 };
/** This much of it is no beep and no voice: a fax. */
const FAX_TONE_MS = 500;

/**
 * Listens to the first seconds of an answered call — the audio of its caller side and the words
 * the recogniser makes of it — and tells who or what answered (AnswerOutcome), once, as soon
 * as it can: a fax tone or a beep at once; a short greeting followed by a pause is a person
 * (0.6 s after their "Hello?"); a longer one is judged by its words (a voicemail greeting,
 * a full mailbox, a menu, a screening assistant), else by its length (3.5 s and more: a
 * recording); what is left, or silence, is uncertain — and an uncertain call whose beep comes
 * later is corrected to voicemail (the only verdict that changes). Time is audio time: 20 ms a frame.
 */
export class AnswerWatch {
  private readonly options: AnswerWatchOptions;
  private readonly beeps = new BeepDetector();
  private readonly faxTone = new BeepDetector(FAX_TONE);
  private heardMs = 0;
  private firstVoiceMs: number | undefined;
  private lastVoiceMs = 0;
  private greetingEndedMs: number | undefined;
  private words = '';
  private decided: AnswerVerdict | undefined;
  private beep = false;
  private greetingEnded?: () => void;

  constructor(
    private readonly onVerdict: (verdict: AnswerVerdict) => void,
    options: Partial<AnswerWatchOptions> = {},
  ) {
    this.options = { ...DEFAULT_ANSWER_WATCH, ...options };
  }

  get verdict(): AnswerVerdict | undefined {
    return this.decided;
  }

  /** A beep was heard (its end is where a voicemail recording starts). */
  get beepHeard(): boolean {
    return this.beep;
  }

  /**
   * Told each time a greeting too long for a person pauses while undecided: its words are
   * wanted now (GreetingWords transcribes what is new of it).
   */
  onGreetingEnded(listener: () => void): void {
    this.greetingEnded = listener;
  }

  /** One 20 ms μ-law frame of the caller's audio. */
  hear(ulaw: Uint8Array): void {
    const at = this.heardMs;
    this.heardMs += FRAME_MS;
    if (this.decided && this.decided.outcome !== 'uncertain') return;
    if (at > this.options.beepListenMs) return;
    this.faxTone.push(ulaw);
    if (this.faxTone.toneMs >= FAX_TONE_MS) return this.decide('fax', 'fax tone');
    if (this.beeps.push(ulaw)) {
      this.beep = true;
      return this.decide('voicemail', 'beep');
    }
    if (this.decided) return;
    if (ulawRmsLevel(ulaw) >= this.options.voiceRms) {
      this.firstVoiceMs ??= at;
      this.lastVoiceMs = this.heardMs;
      this.greetingEndedMs = undefined;
      return;
    }
    this.judgeSilence();
  }

  /** What the recogniser made of a stretch of the caller's speech. */
  heard(words: string): void {
    if (this.decided) return;
    this.words = `${this.words} ${words}`;
    const outcome = outcomeOfWords(this.words);
    if (outcome) this.decide(machineKindOfWords(this.words), 'words');
    else if (this.greetingEndedMs !== undefined) this.judgeLength();
  }

  /** A long greeting whose words told nothing: a recording if it was long enough. */
  private judgeLength(): void {
    const greetingMs = this.lastVoiceMs - (this.firstVoiceMs ?? this.lastVoiceMs);
    this.decide(
      greetingMs >= this.options.machineMinMs ? machineKindOfWords(this.words) : 'uncertain',
      'long greeting',
    );
  }

  private judgeSilence(): void {
    const { pauseMs, personMaxMs, wordsWaitMs, silenceMs } = this.options;
    if (this.firstVoiceMs === undefined) {
      if (this.heardMs >= silenceMs) this.decide('uncertain', 'silence');
      return;
    }
    if (this.heardMs - this.lastVoiceMs < pauseMs) return;
    const greetingMs = this.lastVoiceMs - this.firstVoiceMs;
    if (greetingMs <= personMaxMs) return this.decide('human', 'short greeting');
    if (this.greetingEndedMs === undefined) {
      this.greetingEndedMs = this.heardMs;
      this.greetingEnded?.();
    }
    if (this.heardMs - this.greetingEndedMs >= wordsWaitMs) this.judgeLength();
  }

  private decide(outcome: AnswerOutcome, by: AnswerVerdict['by']): void {
    this.decided = { outcome, afterMs: this.heardMs, by };
    this.onVerdict(this.decided);
  }
}
