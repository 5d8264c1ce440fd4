/** Polls a condition until it holds or the bound passes; never a fixed sleep. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 5_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
