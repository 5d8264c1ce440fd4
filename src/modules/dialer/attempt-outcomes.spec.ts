import { retryOutcomeOf } from './attempt-outcomes';

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
