import { BatchRecognitionStream } from './batch-recognition-stream';

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
});
