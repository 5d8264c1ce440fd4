import { DigitCollector, digitsTurn } from './digit-entry';

describe('a collect_digits entry', () => {
  const pin = { name: 'pin', minDigits: 4, maxDigits: 6 };

  it('is complete at its last digit or on #, which it does not keep', () => {
    const full = new DigitCollector(pin);
    expect([...'12345'].map((key) => full.press(key))).toEqual([false, false, false, false, false]);
    expect(full.press('6')).toBe(true);
    expect(full.digits).toBe('123456');
    const ended = new DigitCollector(pin);
    ended.press('*');
    ended.press('7');
    expect(ended.press('#')).toBe(true);
    expect(ended.digits).toBe('*7');
  });

  it('tells the model what was typed, how much was missing, or only how many when private', () => {
    expect(digitsTurn(pin, '1234', false)).toBe('[The caller entered 1234 for pin]');
    expect(digitsTurn(pin, '12', false)).toBe(
      '[The caller entered 12 for pin: fewer than the 4 asked]',
    );
    expect(digitsTurn(pin, '1234', true)).toBe(
      '[The caller entered 4 digits (kept from you) for pin]',
    );
    expect(digitsTurn(pin, '', true)).toBe('[The caller entered no digits for pin]');
  });
});
