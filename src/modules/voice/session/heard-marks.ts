/**
 * The marks the provider echoed: the audio sent before each has been played to the caller.
 * Waiting for one is bounded, and ends when the call does.
 */
export class HeardMarks {
  private readonly heard = new Set<string>();
  private readonly waiters = new Map<string, () => void>();

  add(name: string): void {
    this.heard.add(name);
    this.waiters.get(name)?.();
  }

  has(name: string): boolean {
    return this.heard.has(name);
  }

  /** Resolves once `name` is heard, `boundMs` passed or release() was called (at once for none). */
  until(name: string | undefined, boundMs: number): Promise<void> {
    if (name === undefined || this.heard.has(name)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(name);
        resolve();
      };
      const timer = setTimeout(done, boundMs);
      this.waiters.set(name, done);
    });
  }

  /** Lets every waiter go (the call ended). */
  release(): void {
    for (const done of [...this.waiters.values()]) done();
  }
}
