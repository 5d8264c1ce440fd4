import { EndpointLimiter, MAX_DEFER_MS, MAX_LOCAL_WAIT_MS, MIN_DEFER_MS } from './endpoint-limiter';

describe('EndpointLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('grants up to the cap at once, then hands a freed slot to the next waiter', async () => {
    const limiter = new EndpointLimiter(2);
    expect(limiter.acquire('a')).toBe(true);
    expect(limiter.acquire('a')).toBe(true);
    // Another endpoint has its own slots.
    expect(limiter.acquire('b')).toBe(true);
    const waiting = limiter.acquire('a');
    expect(waiting).toBeInstanceOf(Promise);
    limiter.release('a', 20, Date.now());
    await expect(waiting).resolves.toBe(true);
  });

  it('defers a waiter after MAX_LOCAL_WAIT_MS, and then defers at once while the endpoint looks slow', async () => {
    jest.useFakeTimers();
    const limiter = new EndpointLimiter(1);
    expect(limiter.acquire('a')).toBe(true);
    const waiting = limiter.acquire('a');
    jest.advanceTimersByTime(MAX_LOCAL_WAIT_MS);
    await expect(waiting).resolves.toBe(false);
    expect(limiter.acquire('a')).toBe(false);
  });

  it('does not queue more waiters than it expects to serve within MAX_LOCAL_WAIT_MS', () => {
    jest.useFakeTimers();
    const limiter = new EndpointLimiter(1);
    expect(limiter.acquire('a')).toBe(true);
    const first = limiter.acquire('a');
    // That attempt took 400 ms: the average moves from 100 to 160 ms, six waiters fit in 1 s.
    limiter.release('a', 400, 0);
    expect(first).toBeInstanceOf(Promise);
    const answers = Array.from({ length: 7 }, () => limiter.acquire('a'));
    expect(answers.slice(0, 6).every((a) => a instanceof Promise)).toBe(true);
    expect(answers[6]).toBe(false);
  });

  it('spaces the deferrals of an endpoint by its pace, within the bounds', () => {
    const limiter = new EndpointLimiter(2);
    expect([limiter.acquire('a'), limiter.acquire('a')]).toEqual([true, true]);
    for (let i = 0; i < 30; i += 1) {
      limiter.release('a', 4_000, 0);
      expect(limiter.acquire('a')).toBe(true);
    }
    const delays = [0, 1, 2].map(() => limiter.deferMs('a', 0, 0.5));
    // ~4 s per attempt over 2 slots: one comes back every ~2 s.
    expect(delays[1] - delays[0]).toBeGreaterThan(1_500);
    expect(delays[2] - delays[1]).toBeGreaterThan(1_500);
    expect(new EndpointLimiter(64).deferMs('x', 0, 0)).toBe(MIN_DEFER_MS);
    jest.useFakeTimers();
    const busy = new EndpointLimiter(1);
    expect(busy.acquire('s')).toBe(true);
    void busy.acquire('s');
    busy.release('s', 1_000_000, 0);
    expect(busy.deferMs('s', 0, 0.99)).toBe(MAX_DEFER_MS);
  });
});
