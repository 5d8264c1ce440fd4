/**
 * Pushes from event handlers (a WebSocket's messages) pulled by an async iterator: the bridge
 * between a socket and `synthesize`'s AsyncIterable. Ends after `end`, throws after `fail`.
 */
export class ChunkQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: Error): void {
    if (this.ended) return;
    this.error = error;
    this.end();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.error) throw this.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
