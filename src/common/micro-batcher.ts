/**
 * Collects calls made within a few milliseconds of each other and runs them as one batch (one
 * statement instead of many round trips). Each caller awaits its own result. A batch starts when
 * it holds `maxSize` items or its first item has waited `maxWaitMs`.
 */
export class MicroBatcher<In, Out> {
  private buffer: Array<{ item: In; resolve: (out: Out) => void; reject: (e: unknown) => void }> =
    [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    /** Runs one batch; answers one result per item, in order. */
    private readonly run: (items: In[]) => Promise<Out[]>,
    private readonly options: { maxSize: number; maxWaitMs: number },
  ) {}

  add(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.buffer.push({ item, resolve, reject });
      if (this.buffer.length >= this.options.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
    });
  }

  /** Starts what is buffered now and resolves when every batch in flight has ended. */
  async drain(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const done = this.run(batch.map((entry) => entry.item))
      .then(
        (results) => batch.forEach((entry, i) => entry.resolve(results[i])),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      )
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }
}
