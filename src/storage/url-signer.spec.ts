import { UrlSigner } from './url-signer';

describe('UrlSigner', () => {
  const signer = new UrlSigner(Buffer.alloc(32, 1));
  const object = {
    key: 'kbdoc-65f1c0ffee0123456789abcd-0011223344556677',
    expires: 2_000,
    fileName: 'pricing.pdf',
    contentType: 'application/pdf',
  };
  const signature = signer.sign(object);

  it('accepts its own signature until the expiry, then says expired', () => {
    expect(signer.check(object, signature, 1_999)).toBe('valid');
    expect(signer.check(object, signature, 2_000)).toBe('valid');
    expect(signer.check(object, signature, 2_001)).toBe('expired');
  });

  it.each([
    ['another key', { key: `${object.key}x` }],
    ['a later expiry', { expires: 9_999 }],
    ['another name', { fileName: 'pricing.html' }],
    ['another type', { contentType: 'text/html' }],
    [
      'a boundary moved between name and type',
      { fileName: 'pricing.pdf\napplication', contentType: 'pdf' },
    ],
  ])('refuses %s', (_case, change) => {
    expect(signer.check({ ...object, ...change }, signature, 1_000)).toBe('invalid');
  });

  it('refuses a tampered, truncated or foreign signature', () => {
    expect(signer.check(object, `${signature.slice(0, -1)}A`, 1_000)).toBe('invalid');
    expect(signer.check(object, signature.slice(0, 10), 1_000)).toBe('invalid');
    expect(signer.check(object, '', 1_000)).toBe('invalid');
    expect(signer.check(object, new UrlSigner(Buffer.alloc(32, 2)).sign(object), 1_000)).toBe(
      'invalid',
    );
  });
});
