import type { RecognitionStream, SpeechTiming } from './speech-engines';
import { UtteranceBuffer } from './utterance-buffer';

/** Transcribes one whole utterance of μ-law 8 kHz audio. */
export type TranscribeUtterance = (ulaw: Buffer, signal?: AbortSignal) => Promise<string>;

/**
 * The recognition stream of a batch engine (offline, OpenAI-compatible): frames are buffered
 * (between the last 90 s and two minutes at most) until `finish`, which transcribes the turn's
 * speech span with a short pre- and post-roll — or, told no span, all since the previous finish.
 */
export class BatchRecognitionStream implements RecognitionStream {
  private readonly audio = new UtteranceBuffer();
  private closed = false;

  constructor(private readonly transcribe: TranscribeUtterance) {}

  write(ulaw: Buffer): void {
    if (!this.closed) this.audio.write(ulaw);
  }

  async finish(signal?: AbortSignal, speech?: SpeechTiming): Promise<string> {
    const utterance = this.audio.take(speech);
    if (this.closed || utterance.length === 0) return '';
    return (await this.transcribe(utterance, signal)).trim();
  }

  reset(): void {
    this.audio.reset();
  }

  close(): void {
    this.closed = true;
    this.audio.release();
  }
}
