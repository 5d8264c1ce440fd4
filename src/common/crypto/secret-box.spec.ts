import type { AppConfig } from '../../config';
import { SecretBox } from './secret-box';

const box = (fill: number) =>
  new SecretBox({ crypto: { encryptionKey: Buffer.alloc(32, fill) } } as AppConfig);

describe('SecretBox', () => {
  const secrets = box(1);

  it('round-trips and never repeats a ciphertext', () => {
    const sealed = new Set(Array.from({ length: 200 }, () => secrets.seal('auth-token', 'org:a')));
    expect(sealed.size).toBe(200);
    for (const value of sealed) expect(secrets.open(value, 'org:a')).toBe('auth-token');
    expect([...sealed][0]).not.toContain('auth-token');
  });

  it('refuses another associated data, another key, and any flipped byte', () => {
    const sealed = secrets.seal('auth-token', 'org:a');
    expect(() => secrets.open(sealed, 'org:b')).toThrow();
    expect(() => box(2).open(sealed, 'org:a')).toThrow();
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    for (const index of [0, 12, 28, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[index] ^= 1;
      expect(() => secrets.open(`v1.${flipped.toString('base64')}`, 'org:a')).toThrow();
    }
    expect(() => secrets.open('v0.abc', 'org:a')).toThrow('Unsupported sealed value');
  });
});
