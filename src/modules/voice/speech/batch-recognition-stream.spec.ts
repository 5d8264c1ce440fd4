import { BatchRecognitionStream } from './batch-recognition-stream';
import { POST_ROLL_MS, PRE_ROLL_MS } from './utterance-buffer';

describe('BatchRecognitionStream', () => {
  it('transcribes what was said since the previous finish, once', async () => {
    const heard: Buffer[] = [];
    const stream = new BatchRecognitionStream((ulaw) => {
      heard.push(ulaw);
      return Promise.resolve(` words ${heard.length} `);
    });
    stream.write(Buffer.alloc(160, 1));
    stream.write(Buffer.alloc(160, 2));
    await expect(stream.finish()).resolves.toBe('words 1');
    await expect(stream.finish()).resolves.toBe('');
    stream.write(Buffer.alloc(160, 3));
    stream.reset();
    stream.write(Buffer.alloc(160, 4));
    await expect(stream.finish()).resolves.toBe('words 2');
    expect(heard).toEqual([
      Buffer.concat([Buffer.alloc(160, 1), Buffer.alloc(160, 2)]),
      Buffer.alloc(160, 4),
    ]);
    stream.close();
    stream.write(Buffer.alloc(160, 5));
    await expect(stream.finish()).resolves.toBe('');
  });

  it("copies the caller's frames in, and hands each turn its own copy", async () => {
    const heard: Buffer[] = [];
    const stream = new BatchRecognitionStream((ulaw) => {
      heard.push(ulaw);
      return Promise.resolve('words');
    });
    const frame = Buffer.alloc(160, 7);
    stream.write(frame);
    frame.fill(9); // the media path reuses or drops its buffer at once
    const transcribed = stream.finish();
    stream.write(Buffer.alloc(160, 8)); // the next turn, while this one is transcribed
    await transcribed;
    expect(heard[0]).toEqual(Buffer.alloc(160, 7));
  });
});

describe('BatchRecognitionStream with the speech span', () => {
  /** Frame `i` (20 ms, 160 bytes) filled with i % 256, so a cut shows where it fell. */
  const frame = (i: number) => Buffer.alloc(160, i % 256);
  const frameIndexes = (ulaw: Buffer) =>
    Array.from({ length: ulaw.length / 160 }, (_, i) => ulaw[i * 160]);

  it('transcribes the speech with PRE_ROLL_MS before it and POST_ROLL_MS after, not the silence since the last turn', async () => {
    const heard: Buffer[] = [];
    const stream = new BatchRecognitionStream((ulaw) => {
      heard.push(ulaw);
      return Promise.resolve('words');
    });
    // 4 s since the previous turn: speech from 2,000 to 3,000 ms, silence around it.
    for (let i = 0; i < 200; i++) stream.write(frame(i));
    await expect(stream.finish(undefined, { startedAtMs: 2_000, endedAtMs: 3_000 })).resolves.toBe(
      'words',
    );
    expect(PRE_ROLL_MS).toBe(300);
    // Frames 85 (1,700 ms) up to 160 (3,200 ms).
    expect(heard[0].length).toBe(((1_000 + PRE_ROLL_MS + POST_ROLL_MS) / 20) * 160);
    expect(frameIndexes(heard[0])).toEqual(Array.from({ length: 75 }, (_, i) => 85 + i));

    // The next turn keeps the same clock: audio time runs on from where the stream began.
    for (let i = 200; i < 300; i++) stream.write(frame(i));
    await stream.finish(undefined, { startedAtMs: 5_000, endedAtMs: 5_400 });
    expect(frameIndexes(heard[1])).toEqual(Array.from({ length: 45 }, (_, i) => (235 + i) % 256));
  });

  it('keeps the last two minutes of audio, so a caller who speaks after a long silence is heard', async () => {
    const heard: Buffer[] = [];
    const stream = new BatchRecognitionStream((ulaw) => {
      heard.push(ulaw);
      return Promise.resolve('late words');
    });
    const frames = (150 * 1_000) / 20;
    for (let i = 0; i < frames; i++) stream.write(frame(i));
    // Speech in the last second of 150 s.
    await expect(
      stream.finish(undefined, { startedAtMs: 149_000, endedAtMs: 149_800 }),
    ).resolves.toBe('late words');
    expect(frameIndexes(heard[0])).toEqual(
      Array.from({ length: 65 }, (_, i) => (frames - 50 - 15 + i) % 256),
    );

    // Ten minutes with no turn: what is held stays between the last 90 s and two minutes.
    for (let i = 0; i < 30_000; i++) stream.write(frame(i));
    await stream.finish();
    expect(heard[1].length).toBeGreaterThanOrEqual(90 * 8_000);
    expect(heard[1].length).toBeLessThanOrEqual(120 * 8_000);
    expect(heard[1].subarray(-160)).toEqual(frame(29_999));
  });
});
