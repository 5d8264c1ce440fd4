/** μ-law's code for 0 (silence). */
export const ULAW_SILENCE = 0xff;

/**
 * Cuts audio arriving in chunks of any length into frames of `frameBytes`; the last, short frame
 * is padded with silence on `flush`.
 */
export class FrameCutter {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly frameBytes: number) {}

  push(chunk: Buffer): Buffer[] {
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Buffer[] = [];
    let offset = 0;
    for (; offset + this.frameBytes <= data.length; offset += this.frameBytes)
      frames.push(Buffer.from(data.subarray(offset, offset + this.frameBytes)));
    this.pending = Buffer.from(data.subarray(offset));
    return frames;
  }

  /** The rest, padded to a whole frame; null when nothing is left. */
  flush(): Buffer | null {
    if (this.pending.length === 0) return null;
    const frame = Buffer.alloc(this.frameBytes, ULAW_SILENCE);
    this.pending.copy(frame);
    this.pending = Buffer.alloc(0);
    return frame;
  }
}
