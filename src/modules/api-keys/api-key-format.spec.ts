import { apiKeyMatches, generateApiKey, parseApiKey } from './api-key-format';

describe('api key format', () => {
  it('generates a key whose public id parses back and whose hash matches only itself', () => {
    const generated = generateApiKey();
    expect(generated.key.startsWith(`${generated.prefix}_`)).toBe(true);
    expect(parseApiKey(generated.key)).toBe(generated.publicId);
    expect(apiKeyMatches(generated.key, generated.secretHash)).toBe(true);
    const tampered = generated.key.slice(0, -1) + (generated.key.endsWith('A') ? 'B' : 'A');
    expect(apiKeyMatches(tampered, generated.secretHash)).toBe(false);
    expect(generated.secretHash).not.toContain(generated.key);
  });

  it('refuses malformed keys without a lookup', () => {
    for (const bad of [
      '',
      'sb_',
      'sb_zzzzzzzzzzzzzzzz_' + 'a'.repeat(43),
      'Bearer x',
      'sb_0123456789abcdef_short',
    ]) {
      expect(parseApiKey(bad)).toBeUndefined();
    }
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey().key));
    expect(keys.size).toBe(500);
  });
});
