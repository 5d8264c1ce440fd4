import { csvCell, csvLine } from './csv-cells';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+14155551234', "'+14155551234"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['a,b', '"a,b"'],
    ['line\nbreak', '"line\nbreak"'],
    ['plain', 'plain'],
  ])('writes %j as %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves empty cells empty and ends lines with CRLF', () => {
    expect(csvLine(['a', null, undefined, '', 'b'])).toBe('a,,,,b\r\n');
  });
});
