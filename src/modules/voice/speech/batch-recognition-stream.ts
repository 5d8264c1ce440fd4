import type { RecognitionStream, SpeechTiming } from './speech-engines';

/** Transcribes one whole utterance of μ-law 8 kHz audio. */
export type TranscribeUtterance = (ulaw: Buffer, signal?: AbortSignal) => Promise<string>;

/** μ-law 8 kHz: one byte per sample. */
const BYTES_PER_MS = 8;
/** Kept before the speech start the VAD reported: its first window is already into the word. */
export const PRE_ROLL_MS = 300;
/** Kept after the last speech window, for soft word endings. */
export const POST_ROLL_MS = 200;
// Two minutes of caller audio: older audio is dropped, never held without bound.
const MAX_BUFFERED_BYTES = 8000 * 120;

/**
 * The recognition stream of a batch engine (offline, OpenAI-compatible): frames are buffered
 * (the last two minutes at most) until `finish`, which transcribes the turn's speech span with
 * PRE_ROLL_MS before it and POST_ROLL_MS after — or, told no span, all since the previous finish.
 */
export class BatchRecognitionStream implements RecognitionStream {
  private frames: Buffer[] = [];
  private bytes = 0;
  /** Audio time (ms since open) of the first buffered byte. */
  private bufferedFromMs = 0;
  private writtenBytes = 0;
  private closed = false;

  constructor(private readonly transcribe: TranscribeUtterance) {}

  write(ulaw: Buffer): void {
    if (this.closed) return;
    this.frames.push(ulaw);
    this.bytes += ulaw.length;
    this.writtenBytes += ulaw.length;
    while (this.bytes > MAX_BUFFERED_BYTES) {
      const oldest = this.frames.shift()!;
      this.bytes -= oldest.length;
      this.bufferedFromMs += oldest.length / BYTES_PER_MS;
    }
  }

  async finish(signal?: AbortSignal, speech?: SpeechTiming): Promise<string> {
    const utterance = this.cut(speech);
    this.reset();
    if (this.closed || utterance.length === 0) return '';
    return (await this.transcribe(utterance, signal)).trim();
  }

  reset(): void {
    this.frames = [];
    this.bytes = 0;
    this.bufferedFromMs = this.writtenBytes / BYTES_PER_MS;
  }

  close(): void {
    this.closed = true;
    this.reset();
  }

  /** The buffered audio within the speech span and its rolls (all of it when none is given). */
  private cut(speech: SpeechTiming | undefined): Buffer {
    const buffered = Buffer.concat(this.frames);
    if (!speech) return buffered;
    const at = (ms: number) =>
      Math.min(buffered.length, Math.max(0, Math.round((ms - this.bufferedFromMs) * BYTES_PER_MS)));
    return buffered.subarray(
      at(speech.startedAtMs - PRE_ROLL_MS),
      at(speech.endedAtMs + POST_ROLL_MS),
    );
  }
}
