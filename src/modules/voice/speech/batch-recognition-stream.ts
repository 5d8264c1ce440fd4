import type { RecognitionStream, SpeechTiming } from './speech-engines';

/** Transcribes one whole utterance of μ-law 8 kHz audio. */
export type TranscribeUtterance = (ulaw: Buffer, signal?: AbortSignal) => Promise<string>;

/** μ-law 8 kHz: one byte per sample. */
const BYTES_PER_MS = 8;
/** Kept before the speech start the VAD reported: its first window is already into the word. */
export const PRE_ROLL_MS = 300;
/** Kept after the last speech window, for soft word endings. */
export const POST_ROLL_MS = 200;
// Two minutes of caller audio at most: older audio is dropped, never held without bound.
const MAX_BUFFERED_BYTES = 8000 * 120;
/** Room for the first two seconds; the buffer doubles from there up to the cap. */
const INITIAL_BYTES = 2_000 * BYTES_PER_MS;

/**
 * The recognition stream of a batch engine (offline, OpenAI-compatible): frames are buffered
 * (between the last 90 s and two minutes at most) until `finish`, which transcribes the turn's
 * speech span with PRE_ROLL_MS before it and POST_ROLL_MS after — or, told no span, all since the
 * previous finish. Frames are copied into one buffer rather than held: a call's thousands of
 * 20 ms Buffers, each alive for seconds, outlived the young generation and were copied and
 * promoted by every scavenge.
 */
export class BatchRecognitionStream implements RecognitionStream {
  private buffer = Buffer.alloc(0);
  /** Audio in `buffer[0, bytes)`: the last `bytes` of all written. */
  private bytes = 0;
  private writtenBytes = 0;
  private closed = false;

  constructor(private readonly transcribe: TranscribeUtterance) {}

  write(ulaw: Buffer): void {
    if (this.closed) return;
    this.writtenBytes += ulaw.length;
    const kept = ulaw.subarray(Math.max(0, ulaw.length - MAX_BUFFERED_BYTES));
    this.makeRoom(kept.length);
    kept.copy(this.buffer, this.bytes);
    this.bytes += kept.length;
  }

  async finish(signal?: AbortSignal, speech?: SpeechTiming): Promise<string> {
    const utterance = this.cut(speech);
    this.reset();
    if (this.closed || utterance.length === 0) return '';
    return (await this.transcribe(utterance, signal)).trim();
  }

  reset(): void {
    this.bytes = 0;
  }

  close(): void {
    this.closed = true;
    this.reset();
    this.buffer = Buffer.alloc(0);
  }

  /** Audio time (ms since open) of the first buffered byte. */
  private get bufferedFromMs(): number {
    return (this.writtenBytes - this.bytes) / BYTES_PER_MS;
  }

  /**
   * Room for `length` more bytes. At the cap the oldest quarter goes at once: one move per 30 s
   * of audio rather than one per frame.
   */
  private makeRoom(length: number): void {
    const needed = this.bytes + length;
    if (needed > MAX_BUFFERED_BYTES) {
      const drop = Math.min(
        this.bytes,
        Math.max(needed - MAX_BUFFERED_BYTES, MAX_BUFFERED_BYTES / 4),
      );
      this.buffer.copyWithin(0, drop, this.bytes);
      this.bytes -= drop;
    }
    if (this.bytes + length <= this.buffer.length) return;
    let size = Math.max(2 * this.buffer.length, INITIAL_BYTES);
    while (size < this.bytes + length) size *= 2;
    const grown = Buffer.allocUnsafe(Math.min(size, MAX_BUFFERED_BYTES));
    this.buffer.copy(grown, 0, 0, this.bytes);
    this.buffer = grown;
  }

  /** The buffered audio within the speech span and its rolls (all of it when none is given). */
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
