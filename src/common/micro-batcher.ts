export interface MicroBatcherOptions {
  /** A batch starts as soon as it holds this many items... */
  maxSize: number;
  /** ...or once its first item has waited this long. */
  maxWaitMs: number;
  /**
   * At most this many batches run at once; items arriving meanwhile wait and go out together
   * when one ends (group commit: under load, fewer and fuller statements). Default: no limit.
   */
  maxConcurrent?: number;
}

/**
 * Collects calls made within a few milliseconds of each other and runs them as one batch (one
 * statement instead of many round trips). Each caller awaits its own result.
 */
export class MicroBatcher<In, Out> {
  private buffer: Array<{ item: In; resolve: (out: Out) => void; reject: (e: unknown) => void }> =
    [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxConcurrent: number;

  constructor(
    /** Runs one batch; answers one result per item, in order. */
    private readonly run: (items: In[]) => Promise<Out[]>,
    private readonly options: MicroBatcherOptions,
  ) {
    this.maxConcurrent = options.maxConcurrent ?? Infinity;
  }

  add(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.buffer.push({ item, resolve, reject });
      if (this.buffer.length >= this.options.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
    });
  }

  /** Runs everything buffered and resolves when no batch is left running. */
  async drain(): Promise<void> {
    while (this.buffer.length > 0 || this.inFlight.size > 0) {
      this.flush();
      await Promise.allSettled([...this.inFlight]);
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // Full: the batch that ends next starts the one waiting here.
    while (this.buffer.length > 0 && this.inFlight.size < this.maxConcurrent) {
      const batch = this.buffer.splice(0, this.options.maxSize);
      const done = this.run(batch.map((entry) => entry.item))
        .then(
          (results) => batch.forEach((entry, i) => entry.resolve(results[i])),
          (error: unknown) => batch.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.inFlight.delete(done);
          if (this.buffer.length > 0) this.flush();
        });
      this.inFlight.add(done);
    }
  }
}
