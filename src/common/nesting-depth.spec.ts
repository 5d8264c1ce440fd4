import { nestsDeeperThan } from './nesting-depth';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('accepts scalars and bodies up to the limit', () => {
    expect(nestsDeeperThan('text', 2)).toBe(false);
    expect(nestsDeeperThan(null, 2)).toBe(false);
    expect(nestsDeeperThan({ contacts: [{ phoneNumber: '+1' }] }, 3)).toBe(false);
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
  });

  it('finds one level too many, wherever it is', () => {
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan({ shallow: 1, deep: [[[[]]]] }, 4)).toBe(true);
  });

  it('walks 100,000 levels without exhausting the stack', () => {
    expect(nestsDeeperThan(nested(100_000), 32)).toBe(true);
  });
});
