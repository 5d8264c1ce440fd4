import { costlyPatternReason } from './search-pattern';

describe('costlyPatternReason', () => {
  it.each([
    'smith|jones',
    'smi(th)$',
    '^A-[0-9]+$',
    '(a|b)+c',
    '(?:ab)*c',
    '\\d{3}-\\d{4}',
    '[(+*]{2}',
    '[[:alpha:]]+ [^]x]*',
    'x{1,20}',
    'a*?b',
    '(ab)?(cd)?',
    '\\(a+\\)+',
  ])('accepts %s', (pattern) => {
    expect(costlyPatternReason(pattern)).toBeUndefined();
  });

  it.each([
    ['((a+)+)+b', /nested repetition/],
    ['(a*)*b', /nested repetition/],
    ['((.*)*)*x', /nested repetition/],
    ['(.*a){20}', /nested repetition/],
    ['(a?){30}a{30}', /nested repetition|above 20/],
    ['((x)y+)?', /nested repetition/],
    ['(?:a+)+', /nested repetition/],
    ['(.{0,100}){0,100}x', /above 20|nested repetition/],
    ['.{0,255}x', /above 20/],
    ['(a+)\\1', /backreferences/],
    ['(.*)(.*)\\2\\1x', /backreferences/],
  ])('refuses %s', (pattern, reason) => {
    expect(costlyPatternReason(pattern)).toMatch(reason);
  });
});
