import { isMobileNumber, maskPhoneNumber, toE164 } from './phone-number';

describe('toE164', () => {
  it.each([
    ['+14155551234', '+14155551234'],
    ['14155551234', '+14155551234'],
    [' +1 (415) 555-1234 ', '+14155551234'],
    ['447911123456', '+447911123456'],
    ['+91 98765 43210', '+919876543210'],
  ])('normalises %p to %p', (input, expected) => {
    expect(toE164(input)).toBe(expected);
  });

  it.each(['', 'abc', '+1', '123', '+1415555123456789', '4155551234x', '+10005551234'])(
    'refuses %p',
    (input) => {
      expect(toE164(input)).toBeUndefined();
    },
  );

  it('masks all but the country code start and the last four digits', () => {
    expect(maskPhoneNumber('+14155551234')).toBe('+1415***1234');
  });
});

describe('isMobileNumber', () => {
  it.each([
    ['+447911123456', true], // UK mobile
    ['+14155552671', true], // NANP: fixed line or mobile
    ['+442079460000', false], // London fixed line
    ['+18005550100', false], // toll free
  ])('%s → %s', (e164, mobile) => {
    expect(isMobileNumber(e164)).toBe(mobile);
  });
});
