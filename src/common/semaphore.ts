/**
 * At most `limit` tasks run at once; the others wait in arrival order. `peak` is the most that
 * ever ran together (what a load test reads).
 */
export class Semaphore {
  private active = 0;
  private highWater = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError('limit must be a positive integer');
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  get peak(): number {
    return this.highWater;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    this.highWater = Math.max(this.highWater, this.active);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot take it in between.
      if (next) next();
      else this.active -= 1;
    }
  }
}
