// One caller of the voice bench, on the provider's side of a media stream: it sends a 20 ms
// frame every 20 ms for the whole call (silence between utterances, as a phone line does),
// waits for the greeting, then speaks an utterance, waits for the agent's reply to play out,
// pauses and speaks again. It keeps, per turn, when its last voiced frame was sent and when the
// first agent frame came back, and every agent frame's arrival time for the pacing jitter.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeUlaw } from '../../src/modules/voice/audio/g711';
import { FRAME_BYTES, FRAME_MS } from '../../src/modules/voice/media/media-stream';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import type { MediaStreamCaller } from '../../test/fakes/media-stream-caller';

/** Frames go out as base64 payloads, encoded once: 100 callers send 5,000 frames a second. */
const SILENCE = Buffer.alloc(FRAME_BYTES, 0xff).toString('base64');
/** Frames quieter than this (RMS of 16-bit samples) before or after the words are cut. */
const VOICED_RMS = 300;

/**
 * The utterance's frames from its first voiced frame to its last (nothing quiet at either end),
 * as base64 media payloads.
 */
export function voicedFrames(fixture: string): string[] {
  const audio = readFileSync(path.join(__dirname, '../../test/fixtures/voice', fixture));
  const frames: Buffer[] = [];
  for (let at = 0; at + FRAME_BYTES <= audio.length; at += FRAME_BYTES) {
    frames.push(audio.subarray(at, at + FRAME_BYTES));
  }
  const voiced = (frame: Buffer) => {
    const samples = decodeUlaw(frame);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.sqrt(sum / samples.length) >= VOICED_RMS;
  };
  const first = frames.findIndex(voiced);
  const last = frames.length - 1 - [...frames].reverse().findIndex(voiced);
  if (first < 0) throw new Error(`${fixture} has no voiced frame`);
  return frames.slice(first, last + 1).map((frame) => frame.toString('base64'));
}

export interface TurnSample {
  /** When the utterance's last voiced frame was handed to the socket (performance.now()). */
  lastVoicedAt: number;
  /** When the reply's first frame arrived; undefined when it never came (missed). */
  firstReplyAt?: number;
}

type Phase =
  | { kind: 'greeting' }
  | { kind: 'pause'; frames: number }
  | { kind: 'speaking'; next: number }
  | { kind: 'waiting'; since: number; framesBefore: number; turn: TurnSample }
  /** `marksRead`: the marks already looked at for the reply's last one. */
  | { kind: 'replying'; since: number; segmentStart: number; marksRead: number }
  | { kind: 'done' };

export interface CallerOptions {
  /** The utterance's frames as base64 payloads. */
  utterance: string[];
  /** Turns to speak; then the caller only sends silence until stopped. */
  turns: number;
  /** Silence before each utterance, drawn from [min, max] frames. */
  pauseFrames: [number, number];
  random: () => number;
  /** A reply that has not started or finished by then counts as missed, and the caller goes on. */
  replyTimeoutMs?: number;
}

export class ScriptedCaller {
  readonly turns: TurnSample[] = [];
  /** [first, end) indexes into caller.frames of each stretch of agent audio (greeting, replies). */
  readonly segments: Array<[number, number]> = [];
  /** How late each send tick was against its absolute 20 ms target (the load generator's own lag). */
  readonly sendLagMs: number[] = [];
  private phase: Phase = { kind: 'greeting' };
  private timer: NodeJS.Timeout | undefined;
  private chunk = 0;
  private startedAt = 0;
  private stopped = false;

  constructor(
    readonly stream: MediaStreamCaller,
    private readonly options: CallerOptions,
  ) {}

  get finished(): boolean {
    return this.phase.kind === 'done';
  }

  /** Starts the frame clock: one frame per 20 ms at absolute targets, catching up when late. */
  start(): void {
    this.startedAt = performance.now();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    const due = this.startedAt + (this.chunk + 1) * FRAME_MS;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - performance.now()));
  }

  private tick(): void {
    const now = performance.now();
    this.sendLagMs.push(now - (this.startedAt + (this.chunk + 1) * FRAME_MS));
    // Late: send every frame that is due, so the audio keeps real time as a provider's does.
    while (this.startedAt + (this.chunk + 1) * FRAME_MS <= now && !this.stopped) {
      this.sendFrame();
    }
    this.schedule();
  }

  private sendFrame(): void {
    this.stream.sendPayload(this.advance(), this.chunk);
    this.chunk += 1;
    if (this.phase.kind === 'speaking' && this.phase.next === this.options.utterance.length) {
      const turn: TurnSample = { lastVoicedAt: performance.now() };
      this.turns.push(turn);
      this.phase = {
        kind: 'waiting',
        since: turn.lastVoicedAt,
        framesBefore: this.stream.frames.length,
        turn,
      };
    }
  }

  /** The frame to send now (its payload), moving the script on from what has arrived. */
  private advance(): string {
    const phase = this.phase;
    const now = performance.now();
    switch (phase.kind) {
      case 'greeting':
        if (this.stream.marks.some((mark) => mark.name === GREETING_MARK)) {
          this.segments.push([0, this.stream.frames.length]);
          this.pause();
        }
        return SILENCE;
      case 'pause':
        phase.frames -= 1;
        if (phase.frames <= 0) {
          this.phase = { kind: 'speaking', next: 0 };
        }
        return SILENCE;
      case 'speaking':
        return this.options.utterance[phase.next++];
      case 'waiting': {
        const first = this.stream.frames[phase.framesBefore];
        if (first) {
          phase.turn.firstReplyAt = first.at;
          this.phase = {
            kind: 'replying',
            since: now,
            segmentStart: phase.framesBefore,
            marksRead: this.stream.marks.length,
          };
        } else if (now - phase.since > (this.options.replyTimeoutMs ?? 10_000)) {
          this.pause();
        }
        return SILENCE;
      }
      case 'replying': {
        const marks = this.stream.marks;
        let ended = false;
        for (; phase.marksRead < marks.length; phase.marksRead++) {
          ended ||= REPLY_END.test(marks[phase.marksRead].name);
        }
        if (ended || now - phase.since > (this.options.replyTimeoutMs ?? 10_000)) {
          if (ended) this.segments.push([phase.segmentStart, this.stream.frames.length]);
          this.pause();
        }
        return SILENCE;
      }
      case 'done':
        return SILENCE;
    }
  }

  private pause(): void {
    if (this.turns.length >= this.options.turns) {
      this.phase = { kind: 'done' };
      return;
    }
    const [min, max] = this.options.pauseFrames;
    this.phase = {
      kind: 'pause',
      frames: min + Math.floor(this.options.random() * (max - min + 1)),
    };
  }
}

/** The number of sentences in the fake model's reply: the mark after the last one ends it. */
export const REPLY_SENTENCES = 2;
const REPLY_END = new RegExp(`^reply-\\d+-${REPLY_SENTENCES}$`);

/** |arrival interval − 20 ms| between consecutive frames of one stretch of agent audio. */
export function pacingJitters(caller: ScriptedCaller): number[] {
  const frames = caller.stream.frames;
  const jitters: number[] = [];
  for (const [first, end] of caller.segments) {
    for (let i = first + 1; i < end; i++) {
      jitters.push(Math.abs(frames[i].at - frames[i - 1].at - FRAME_MS));
    }
  }
  return jitters;
}
