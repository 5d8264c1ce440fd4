import type { SpeechTiming } from './speech-engines';

/** μ-law 8 kHz: one byte per sample. */
const BYTES_PER_MS = 8;
/** Kept before the speech start the VAD reported: its first window is already into the word. */
export const PRE_ROLL_MS = 300;
/** Kept after the last speech window, for soft word endings. */
export const POST_ROLL_MS = 200;
/** Two minutes of caller audio: older audio is dropped, never held without bound. */
export const TWO_MINUTES_BYTES = 8000 * 120;
/** Room for the first two seconds; the buffer doubles from there up to the cap. */
const INITIAL_BYTES = 2_000 * BYTES_PER_MS;

/**
 * The caller's μ-law 8 kHz audio since the last `take` (between three quarters of `maxBytes` and
 * `maxBytes` at most), and the cut of a turn's speech from it. Frames are copied into one buffer
 * rather than held: a call's thousands of 20 ms Buffers, each alive for seconds, outlived the
 * young generation and were copied and promoted by every scavenge.
 */
export class UtteranceBuffer {
  private buffer = Buffer.alloc(0);
  /** Audio in `buffer[0, bytes)`: the last `bytes` of all written. */
  private bytes = 0;
  private writtenBytes = 0;

  constructor(private readonly maxBytes = TWO_MINUTES_BYTES) {}

  write(ulaw: Buffer): void {
    this.writtenBytes += ulaw.length;
    const kept = ulaw.subarray(Math.max(0, ulaw.length - this.maxBytes));
    this.makeRoom(kept.length);
    kept.copy(this.buffer, this.bytes);
    this.bytes += kept.length;
  }

  /**
   * A copy of the turn's speech span with PRE_ROLL_MS before it and POST_ROLL_MS after (all of
   * it when no span is given), and the buffer emptied for the next turn.
   */
  take(speech?: SpeechTiming): Buffer {
    const utterance = this.cut(speech);
    this.reset();
    return utterance;
  }

  reset(): void {
    this.bytes = 0;
  }

  /** Lets the memory go (the stream was closed). */
  release(): void {
    this.reset();
    this.buffer = Buffer.alloc(0);
  }

  /** Audio time (ms since open) of the first buffered byte. */
  private get bufferedFromMs(): number {
    return (this.writtenBytes - this.bytes) / BYTES_PER_MS;
  }

  /**
   * Room for `length` more bytes. At the cap the oldest quarter goes at once: one move per
   * quarter of the cap rather than one per frame.
   */
  private makeRoom(length: number): void {
    const needed = this.bytes + length;
    if (needed > this.maxBytes) {
      const drop = Math.min(this.bytes, Math.max(needed - this.maxBytes, this.maxBytes / 4));
      this.buffer.copyWithin(0, drop, this.bytes);
      this.bytes -= drop;
    }
    if (this.bytes + length <= this.buffer.length) return;
    let size = Math.max(2 * this.buffer.length, INITIAL_BYTES);
    while (size < this.bytes + length) size *= 2;
    const grown = Buffer.allocUnsafe(Math.min(size, this.maxBytes));
    this.buffer.copy(grown, 0, 0, this.bytes);
    this.buffer = grown;
  }

  private cut(speech: SpeechTiming | undefined): Buffer {
    const buffered = this.buffer.subarray(0, this.bytes);
    const at = (ms: number) =>
      Math.min(buffered.length, Math.max(0, Math.round((ms - this.bufferedFromMs) * BYTES_PER_MS)));
    const span = speech
      ? buffered.subarray(at(speech.startedAtMs - PRE_ROLL_MS), at(speech.endedAtMs + POST_ROLL_MS))
      : buffered;
    // A copy: the buffer takes the next turn's audio while this one is being transcribed.
    return Buffer.from(span);
  }
}
