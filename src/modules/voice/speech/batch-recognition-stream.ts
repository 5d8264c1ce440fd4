import type { RecognitionStream } from './speech-engines';

/** Transcribes one whole utterance of μ-law 8 kHz audio. */
export type TranscribeUtterance = (ulaw: Buffer, signal?: AbortSignal) => Promise<string>;

// Two minutes of caller audio: a turn longer than that is cut, not held without bound.
const MAX_UTTERANCE_BYTES = 8000 * 120;

/**
 * The recognition stream of a batch engine (offline, OpenAI-compatible): frames are buffered
 * until `finish`, which transcribes what was said since the previous finish.
 */
export class BatchRecognitionStream implements RecognitionStream {
  private frames: Buffer[] = [];
  private bytes = 0;
  private closed = false;

  constructor(private readonly transcribe: TranscribeUtterance) {}

  write(ulaw: Buffer): void {
    if (this.closed || this.bytes + ulaw.length > MAX_UTTERANCE_BYTES) return;
    this.frames.push(ulaw);
    this.bytes += ulaw.length;
  }

  async finish(signal?: AbortSignal): Promise<string> {
    const utterance = Buffer.concat(this.frames);
    this.reset();
    if (this.closed || utterance.length === 0) return '';
    return (await this.transcribe(utterance, signal)).trim();
  }

  reset(): void {
    this.frames = [];
    this.bytes = 0;
  }

  close(): void {
    this.closed = true;
    this.reset();
  }
}
