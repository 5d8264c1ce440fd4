import type { BatchRow } from '../batches/batches.schema';
import { retryOutcomeOf, retryRule } from './attempt-outcomes';

describe('retryOutcomeOf', () => {
  it("names an ending in the batch's retryOn words, a machine by what answered", () => {
    expect(retryOutcomeOf('busy', null)).toBe('busy');
    expect(retryOutcomeOf('no-answer', null)).toBe('no_answer');
    expect(retryOutcomeOf('failed', 'human')).toBe('failed');
    expect(retryOutcomeOf('voicemail', null)).toBe('voicemail');
    expect(retryOutcomeOf('voicemail', 'voicemail')).toBe('voicemail');
    expect(retryOutcomeOf('voicemail', 'mailbox_full')).toBe('mailbox_full');
    expect(retryOutcomeOf('voicemail', 'fax')).toBe('fax');
    // A machine the provider alone told (no stream heard it) is a voicemail.
    expect(retryOutcomeOf('voicemail', 'uncertain')).toBe('voicemail');
    for (const never of ['completed', 'canceled'] as const)
      expect(retryOutcomeOf(never, null)).toBeNull();
  });
});

describe('retryRule', () => {
  type Rules = Pick<BatchRow, 'retry' | 'retryOn' | 'delay' | 'retryPolicy'>;
  const batch = (overrides: Partial<Rules> = {}): Rules => ({
    retry: 1,
    retryOn: null,
    delay: 60,
    retryPolicy: null,
    ...overrides,
  });

  it('without a policy: `retry` retries in all, after `delay`, for the endings retryOn names', () => {
    expect(retryRule(batch(), 'busy', { attempts: 1, earlier: [] })).toEqual({
      retried: true,
      delaySeconds: 60,
    });
    expect(retryRule(batch(), 'no_answer', { attempts: 2, earlier: ['busy'] }).retried).toBe(false);
    // Not in retryOn (fax by default), or an ending never retried.
    expect(retryRule(batch(), 'fax', { attempts: 1, earlier: [] }).retried).toBe(false);
    expect(
      retryRule(batch({ retryOn: ['busy'] }), 'failed', { attempts: 1, earlier: [] }).retried,
    ).toBe(false);
    expect(retryRule(batch(), null, { attempts: 1, earlier: [] }).retried).toBe(false);
  });

  it('gives a named outcome its own budget: `attempts` retries after endings with it, at its delay', () => {
    const policy = batch({ retry: 0, retryPolicy: { busy: { attempts: 3, delay: 300 } } });
    const busy = (n: number) =>
      retryRule(policy, 'busy', {
        attempts: n,
        earlier: Array.from({ length: n - 1 }, () => 'busy' as const),
      });
    expect([1, 2, 3, 4].map((n) => busy(n).retried)).toEqual([true, true, true, false]);
    expect(busy(1).delaySeconds).toBe(300);
    // Endings with other outcomes spend nothing of it.
    expect(
      retryRule(policy, 'busy', { attempts: 5, earlier: ['no_answer', 'busy', 'busy', 'failed'] })
        .retried,
    ).toBe(true);
  });

  it('takes a named outcome out of retryOn and retry: attempts 0 never retries, a fax may', () => {
    expect(
      retryRule(batch({ retry: 5, retryPolicy: { busy: { attempts: 0 } } }), 'busy', {
        attempts: 1,
        earlier: [],
      }).retried,
    ).toBe(false);
    const fax = retryRule(batch({ retryPolicy: { fax: { attempts: 1 } } }), 'fax', {
      attempts: 1,
      earlier: [],
    });
    // Not in the default retryOn, but named; without its own delay, the batch's.
    expect(fax).toEqual({ retried: true, delaySeconds: 60 });
  });

  it('counts toward `retry` only the attempts that did not end with a named outcome', () => {
    const mixed = batch({ retry: 1, retryPolicy: { busy: { attempts: 3, delay: 300 } } });
    // Busy twice, then no answer: its one retry is still there.
    expect(retryRule(mixed, 'no_answer', { attempts: 3, earlier: ['busy', 'busy'] })).toEqual({
      retried: true,
      delaySeconds: 60,
    });
    expect(
      retryRule(mixed, 'no_answer', { attempts: 4, earlier: ['busy', 'busy', 'no_answer'] })
        .retried,
    ).toBe(false);
    // An attempt our drain cut short (null) counts toward `retry`, as it always did.
    expect(retryRule(mixed, 'no_answer', { attempts: 2, earlier: [null] }).retried).toBe(false);
  });

  it('starts again with the series: only its own attempts count', () => {
    const policy = batch({ retryPolicy: { no_answer: { attempts: 1 } } });
    expect(retryRule(policy, 'no_answer', { attempts: 1, earlier: [] }).retried).toBe(true);
    expect(retryRule(policy, 'no_answer', { attempts: 2, earlier: ['no_answer'] }).retried).toBe(
      false,
    );
  });
});
