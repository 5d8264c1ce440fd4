import { findUnstorableText, isStorableText } from './storable-text';

describe('storable text (what PostgreSQL text can hold)', () => {
  it.each([
    ['a\u0000b', false],
    ['\u0000', false],
    ['\ud800', false],
    ['\udfff\ud800', false],
    ['x\udc00', false],
    ['plain', true],
    ['emoji 👍 (a surrogate pair)', true],
    ['', true],
  ])('%j storable: %s', (text, expected) => {
    expect(isStorableText(text)).toBe(expected);
  });

  it('finds the first unstorable string or key, with its path', () => {
    expect(findUnstorableText({ name: 'ok', tags: ['a', 'b\u0000'] })).toBe('tags[1]');
    expect(findUnstorableText({ nested: { ['k\ud800']: 1 } })).toBe('nested.k\ud800');
    expect(findUnstorableText('a\u0000', { path: 'id' })).toBe('id');
    expect(findUnstorableText({ a: 1, b: true, c: null, d: ['x'] })).toBeUndefined();
    expect(findUnstorableText(undefined)).toBeUndefined();
  });

  it('leaves skipped top-level properties to their own rules', () => {
    const body = { batchName: 'ok', contacts: [{ note: 'a\u0000' }] };
    expect(findUnstorableText(body, { skip: new Set(['contacts']) })).toBeUndefined();
    expect(findUnstorableText(body)).toBe('contacts[0].note');
    expect(
      findUnstorableText({ ...body, batchName: '\u0000' }, { skip: new Set(['contacts']) }),
    ).toBe('batchName');
  });
});
