import {
  CIRCUIT_WINDOW_MS,
  DISABLE_AFTER_MS,
  FailureWindow,
  shouldDisable,
  shouldOpen,
} from './circuit-rules';

describe('circuit rules', () => {
  it('opens at 70 % failures over at least 10 attempts', () => {
    expect(shouldOpen({ attempts: 10, failures: 7 })).toBe(true);
    expect(shouldOpen({ attempts: 10, failures: 6 })).toBe(false);
    expect(shouldOpen({ attempts: 9, failures: 9 })).toBe(false);
    expect(shouldOpen({ attempts: 1000, failures: 700 })).toBe(true);
  });

  it('disables after 5 days without success and at least 20 failures', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const fiveDaysAgo = new Date(now.getTime() - DISABLE_AFTER_MS);
    expect(shouldDisable({ failures: 20, firstFailureAt: fiveDaysAgo }, now)).toBe(true);
    expect(shouldDisable({ failures: 19, firstFailureAt: fiveDaysAgo }, now)).toBe(false);
    expect(
      shouldDisable({ failures: 500, firstFailureAt: new Date(fiveDaysAgo.getTime() + 1) }, now),
    ).toBe(false);
    expect(shouldDisable({ failures: 0, firstFailureAt: null }, now)).toBe(false);
  });
});

describe('FailureWindow', () => {
  const t0 = 1_700_000_000_000 - (1_700_000_000_000 % 30_000);

  it('counts attempts and failures of the last 5 minutes', () => {
    const window = new FailureWindow();
    for (let i = 0; i < 8; i++) window.record(false, t0 + i * 1000);
    window.record(true, t0 + 10_000);
    expect(window.stats(t0 + 10_000)).toEqual({ attempts: 9, failures: 8 });
  });

  it('forgets what is older than the window', () => {
    const window = new FailureWindow();
    for (let i = 0; i < 20; i++) window.record(false, t0);
    window.record(true, t0 + CIRCUIT_WINDOW_MS);
    expect(window.stats(t0 + CIRCUIT_WINDOW_MS)).toEqual({ attempts: 1, failures: 0 });
  });

  it('is empty once nothing was recorded within the window', () => {
    const window = new FailureWindow();
    expect(window.isEmpty(t0)).toBe(true);
    window.record(true, t0);
    expect(window.isEmpty(t0 + CIRCUIT_WINDOW_MS - 1)).toBe(false);
    expect(window.isEmpty(t0 + CIRCUIT_WINDOW_MS)).toBe(true);
  });

  it('reuses a bucket slot once its time has passed', () => {
    const window = new FailureWindow();
    window.record(false, t0);
    window.record(false, t0 + CIRCUIT_WINDOW_MS + 1);
    expect(window.stats(t0 + CIRCUIT_WINDOW_MS + 1)).toEqual({ attempts: 1, failures: 1 });
  });
});
