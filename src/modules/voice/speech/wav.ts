/** The format of a PCM WAV stream: what a synthesis engine's header says. */
export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/** A 16-bit mono PCM WAV file of `samples` (what recognition services are sent). */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Reads a WAV stream piece by piece: the header first (its chunks walked until `data`, since a
 * streamed WAV such as eSpeak NG's carries a placeholder size), then the PCM bytes as they come.
 */
export class WavStreamParser {
  private header = Buffer.alloc(0);
  format: WavFormat | undefined;

  /** The PCM bytes of this chunk (none until the header is complete). */
  push(chunk: Buffer): Buffer {
    if (this.format) return chunk;
    this.header = Buffer.concat([this.header, chunk]);
    const parsed = parseHeader(this.header);
    if (!parsed) {
      if (this.header.length > MAX_HEADER_BYTES) throw new Error('WAV header not found');
      return Buffer.alloc(0);
    }
    this.format = parsed.format;
    const pcm = this.header.subarray(parsed.dataOffset);
    this.header = Buffer.alloc(0);
    return pcm;
  }
}

function parseHeader(bytes: Buffer): { format: WavFormat; dataOffset: number } | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV stream');
  }
  let format: WavFormat | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'data') {
      if (!format) throw new Error('WAV data before its format');
      return { format, dataOffset: body };
    }
    if (body + size > bytes.length) return undefined;
    if (id === 'fmt ') {
      if (bytes.readUInt16LE(body) !== 1) throw new Error('WAV is not PCM');
      format = {
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    }
    offset = body + size + (size % 2);
  }
  return undefined;
}
