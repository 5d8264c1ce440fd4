import { encodeWav, WavStreamParser } from './wav';

describe('WAV', () => {
  const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);

  it('writes a 16-bit mono PCM file its own parser reads back', () => {
    const wav = encodeWav(samples, 16000);
    const parser = new WavStreamParser();
    const pcm = parser.push(wav);
    expect(parser.format).toEqual({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
    expect(pcm).toEqual(Buffer.from(samples.buffer));
  });

  it('reads a streamed header that arrives a byte at a time, with extra chunks and a placeholder size', () => {
    const wav = encodeWav(samples, 22050);
    // eSpeak NG's stream: sizes 0x7ffff000 as it cannot know them; a LIST chunk before data.
    const list = Buffer.concat([
      Buffer.from('LIST'),
      Buffer.from([4, 0, 0, 0]),
      Buffer.from('INFO'),
    ]);
    const streamed = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    streamed.writeUInt32LE(0x7ffff000, 4);
    const parser = new WavStreamParser();
    const pcm: Buffer[] = [];
    for (const byte of streamed) pcm.push(parser.push(Buffer.from([byte])));
    expect(parser.format?.sampleRate).toBe(22050);
    expect(Buffer.concat(pcm)).toEqual(Buffer.from(samples.buffer));
  });

  it('refuses what is not PCM WAV', () => {
    expect(() => new WavStreamParser().push(Buffer.from('ID3 not a wave file'))).toThrow(
      'not a WAV stream',
    );
  });
});
