import { generateKeyPairSync } from 'node:crypto';
import { isEd25519PublicKey } from './ed25519-public-key';

describe('isEd25519PublicKey', () => {
  const raw = generateKeyPairSync('ed25519')
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(-32);

  it('accepts the raw 32-byte key in base64, with or without its padding', () => {
    const base64 = raw.toString('base64');
    expect(base64).toHaveLength(44);
    expect(isEd25519PublicKey(base64)).toBe(true);
    expect(isEd25519PublicKey(base64.replace(/=$/, ''))).toBe(true);
  });

  it('refuses other lengths, base64url, the SPKI form, whitespace and non-strings', () => {
    expect(isEd25519PublicKey(Buffer.alloc(31, 7).toString('base64'))).toBe(false);
    expect(isEd25519PublicKey(Buffer.alloc(33, 7).toString('base64'))).toBe(false);
    const symbols = Buffer.alloc(32, 0xfb);
    expect(isEd25519PublicKey(symbols.toString('base64'))).toBe(true);
    expect(isEd25519PublicKey(symbols.toString('base64url'))).toBe(false);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
    expect(isEd25519PublicKey(spki.toString('base64'))).toBe(false);
    expect(isEd25519PublicKey(` ${raw.toString('base64')}`)).toBe(false);
    expect(isEd25519PublicKey('')).toBe(false);
    expect(isEd25519PublicKey(undefined)).toBe(false);
    expect(isEd25519PublicKey(42)).toBe(false);
  });
});
