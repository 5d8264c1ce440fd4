import { ULAW_SILENCE } from '../audio/paced-stream';

/** Frames held while waiting for a missing one: 100 ms of audio delay at most. */
export const REORDER_WINDOW = 5;
/** A longer gap (a second) is a jump in the numbering, not lost audio: nothing fills it. */
const MAX_FILLED_FRAMES = 50;

/**
 * Puts numbered caller frames back in order (Telnyx media `chunk`s may arrive out of order or
 * twice): a frame ahead of the next one expected waits, up to REORDER_WINDOW of them; a frame
 * already passed, or held, is a duplicate and dropped. When the window fills, the missing frames
 * are given up as 20 ms of silence each, so the audio keeps its timing (VAD and recognition
 * count time in frames).
 */
export class FrameOrder {
  private next: number | undefined;
  private readonly held = new Map<number, Buffer>();

  /** The frames `frame` (number `chunk`) lets through, in order; none while it waits. */
  push(chunk: number, frame: Buffer): Buffer[] {
    if (this.next === undefined) this.next = chunk;
    if (chunk < this.next || this.held.has(chunk)) return [];
    this.held.set(chunk, frame);
    const out = this.release();
    if (this.held.size >= REORDER_WINDOW) {
      const first = Math.min(...this.held.keys());
      if (first - this.next > MAX_FILLED_FRAMES) this.next = first;
      for (; this.next < first; this.next += 1) out.push(silence(frame.length));
      out.push(...this.release());
    }
    return out;
  }

  private release(): Buffer[] {
    const out: Buffer[] = [];
    for (let frame = this.held.get(this.next!); frame; frame = this.held.get(this.next!)) {
      this.held.delete(this.next!);
      this.next! += 1;
      out.push(frame);
    }
    return out;
  }
}

const silence = (bytes: number) => Buffer.alloc(bytes, ULAW_SILENCE);
