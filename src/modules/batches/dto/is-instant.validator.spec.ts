import { isInstant } from './is-instant.validator';

describe('isInstant', () => {
  it.each([
    '2026-11-23T14:00:00Z',
    '2026-11-23T14:00Z',
    '2026-11-23T14:00:00.123Z',
    '2026-11-23T09:00:00-05:00',
    '2024-02-29T00:00:00+01:00',
  ])('takes %s', (value) => expect(isInstant(value)).toBe(true));

  it.each([
    '2026-11-23',
    '2026-11-23T14:00:00',
    '2026-02-30T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-11-23T24:00:00Z',
    '2026-11-23 14:00:00Z',
    'tomorrow',
    '',
    1_795_000_000_000,
    null,
  ])('refuses %p', (value) => expect(isInstant(value)).toBe(false));
});
