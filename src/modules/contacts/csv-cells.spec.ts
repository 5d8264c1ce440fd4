import { csvLines } from './csv-cells';

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
    ['say "hi"', '"say ""hi"""'],
    ['plain', 'plain'],
  ])('writes %j as %s', (value, expected) => {
    expect(csvLines([[value]])).toBe(`${expected}\r\n`);
  });

  it('leaves empty cells empty and ends every line with CRLF', () => {
    expect(csvLines([['a', null, undefined, '', 'b'], ['c']])).toBe('a,,,,b\r\nc\r\n');
  });
});
