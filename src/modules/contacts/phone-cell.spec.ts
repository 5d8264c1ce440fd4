import { expandScientific, phoneCellToE164 } from './phone-cell';

describe('phone cells from spreadsheets', () => {
  it.each([
    ['+14155551234', '+14155551234'],
    ['14155551234', '+14155551234'],
    ['  "+1 (415) 555-1234"  ', '+14155551234'],
    ["'+14155551234", '+14155551234'],
    ['="+14155551234"', '+14155551234'],
    ['1.4155551234E+10', '+14155551234'],
    ['1.4155551234e10', '+14155551234'],
    ['14155551234.0', '+14155551234'],
    ['4.47911123456E+11', '+447911123456'],
  ])('reads %j as %s', (cell, expected) => {
    expect(phoneCellToE164(cell)).toBe(expected);
  });

  it.each(['1.41556E+10', '1.4155551234E+9', 'abc', '', '+1415555', '1.5', '14155551234.5'])(
    'refuses %j',
    (cell) => {
      expect(phoneCellToE164(cell)).toBeUndefined();
    },
  );

  it('expands scientific notation only when no digit is invented', () => {
    expect(expandScientific('1.4155551234E+10')).toBe('14155551234');
    expect(expandScientific('1.41555512340E+10')).toBe('14155551234');
    expect(expandScientific('1.41555512345E+10')).toBeUndefined();
    expect(expandScientific('1.41556E+10')).toBeUndefined();
    expect(expandScientific('14155551234')).toBeUndefined();
  });
});
