import { DNC_ADDED_SUBJECT, dncAddedNotice } from './dnc-notice';

describe('dncAddedNotice', () => {
  const facts = {
    phoneNumber: '+14155551234',
    batchName: 'November renewals',
    type: 'customer_request',
    addedBy: { name: 'Ada Admin', email: 'ada@example.com' },
    viaApiKey: false,
    addedAt: new Date('2026-11-22T10:00:00.000Z'),
    withdrawnCalls: 2,
  };

  it('says what, where, who and when, with the number masked', () => {
    const { subject, text } = dncAddedNotice(facts);
    expect(subject).toBe(DNC_ADDED_SUBJECT);
    expect(text).toContain('+1415***1234');
    expect(text).not.toContain('4155551234');
    expect(text).toContain('Batch:    November renewals');
    expect(text).toContain('Type:     customer_request');
    expect(text).toContain('Added by: Ada Admin <ada@example.com>\n');
    expect(text).toContain('Added at: 2026-11-22T10:00:00.000Z');
    expect(text).toContain('active or paused batches: 2.');
  });

  it('names an API key, a missing type, and keeps user text on one line', () => {
    const { text } = dncAddedNotice({
      ...facts,
      type: null,
      viaApiKey: true,
      batchName: 'Renewals\r\nBcc: someone@example.com',
    });
    expect(text).toContain('Type:     not given');
    expect(text).toContain('(through an API key)');
    expect(text).toContain('Batch:    Renewals Bcc: someone@example.com\n');
  });
});
