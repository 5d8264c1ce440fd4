import { canonicalLanguageTag } from './language-tag';

describe('canonicalLanguageTag', () => {
  it.each([
    ['en-US', 'en-US'],
    ['EN-us', 'en-US'],
    ['fr', 'fr'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['art-lojban', 'jbo'],
  ])('accepts %s as %s', (input, canonical) => {
    expect(canonicalLanguageTag(input)).toBe(canonical);
  });

  it.each([
    '',
    'en_US',
    'en-',
    '-en',
    'e',
    '123',
    'english!',
    'en US',
    'x-private',
    'a'.repeat(36),
  ])('refuses %j', (input) => {
    expect(canonicalLanguageTag(input)).toBeUndefined();
  });
});
