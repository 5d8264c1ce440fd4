import { Semaphore } from './semaphore';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once and the rest in arrival order', async () => {
    const semaphore = new Semaphore(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      semaphore.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(semaphore.queued).toBe(3);
    gates[1].resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(semaphore.peak).toBe(2);
    expect(semaphore.running).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(semaphore.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(semaphore.running).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });

  it('runWithin gives up waiting after its deadline, and the slot goes to the next waiter', async () => {
    jest.useFakeTimers();
    try {
      const semaphore = new Semaphore(1);
      const held = deferred();
      const first = semaphore.run(() => held.promise);
      const late = semaphore.runWithin(1_000, () => Promise.resolve('late'));
      const patient = semaphore.runWithin(5_000, () => Promise.resolve('patient'));
      jest.advanceTimersByTime(1_000);
      await expect(late).resolves.toEqual({ ran: false });
      expect(semaphore.queued).toBe(1);
      held.resolve();
      await first;
      await expect(patient).resolves.toEqual({ ran: true, value: 'patient' });
      await expect(semaphore.runWithin(0, () => Promise.resolve(1))).resolves.toEqual({
        ran: true,
        value: 1,
      });
      expect(semaphore.running).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
