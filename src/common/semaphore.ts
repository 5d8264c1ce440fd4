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
    return this.holding(task);
  }

  /**
   * Like run, but gives up waiting for a slot after `waitMs`: the task then never runs and the
   * answer is `{ ran: false }`.
   */
  async runWithin<T>(
    waitMs: number,
    task: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    if (this.active >= this.limit) {
      const got = await new Promise<boolean>((resolve) => {
        const take = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(take), 1);
          resolve(false);
        }, waitMs);
        this.waiting.push(take);
      });
      if (!got) return { ran: false };
    } else {
      this.active += 1;
    }
    return { ran: true, value: await this.holding(task) };
  }

  private async holding<T>(task: () => Promise<T>): Promise<T> {
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
