import { MicroBatcher } from './micro-batcher';

/** A batch runner whose batches end only when the test says so. */
function controlledRunner() {
  const batches: Array<{ items: number[]; end: () => void; fail: (e: Error) => void }> = [];
  const run = (items: number[]) =>
    new Promise<number[]>((resolve, reject) =>
      batches.push({
        items,
        end: () => resolve(items.map((n) => n * 10)),
        fail: reject,
      }),
    );
  return { batches, run };
}

const flushMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

describe('MicroBatcher', () => {
  it('starts a batch when it is full and answers each caller its own result', async () => {
    const { batches, run } = controlledRunner();
    const batcher = new MicroBatcher(run, { maxSize: 3, maxWaitMs: 60_000 });
    const results = [1, 2, 3].map((n) => batcher.add(n));
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0].end();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30]);
  });

  it('starts a partial batch once its first item has waited maxWaitMs', () => {
    jest.useFakeTimers();
    try {
      const { batches, run } = controlledRunner();
      const batcher = new MicroBatcher(run, { maxSize: 100, maxWaitMs: 5 });
      void batcher.add(1);
      jest.advanceTimersByTime(4);
      void batcher.add(2);
      expect(batches).toHaveLength(0);
      jest.advanceTimersByTime(1);
      expect(batches.map((b) => b.items)).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('with maxConcurrent 1, holds what arrives during a batch and sends it together next', async () => {
    const { batches, run } = controlledRunner();
    const batcher = new MicroBatcher(run, { maxSize: 2, maxWaitMs: 60_000, maxConcurrent: 1 });
    const all = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    expect(batches.map((b) => b.items)).toEqual([[1, 2]]);
    batches[0].end();
    await flushMicrotasks();
    // Full batches of maxSize, one at a time; the rest follows when the running one ends.
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    batches[1].end();
    await flushMicrotasks();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4], [5]]);
    batches[2].end();
    await expect(Promise.all(all)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('rejects every caller of a failed batch, and drain runs what is left', async () => {
    const { batches, run } = controlledRunner();
    const batcher = new MicroBatcher(run, { maxSize: 2, maxWaitMs: 60_000, maxConcurrent: 1 });
    const failed = [batcher.add(1), batcher.add(2)];
    const waiting = batcher.add(3);
    batches[0].fail(new Error('database down'));
    for (const result of failed) await expect(result).rejects.toThrow('database down');
    const drained = batcher.drain();
    await flushMicrotasks();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3]]);
    batches[1].end();
    await drained;
    await expect(waiting).resolves.toBe(30);
  });
});
