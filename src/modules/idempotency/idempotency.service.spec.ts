import { fingerprint } from './idempotency.service';

describe('fingerprint', () => {
  it('ignores key order and undefined fields, and sees every value', () => {
    expect(fingerprint({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      fingerprint({ b: { d: 'x', c: [1, 2] }, a: 1, e: undefined }),
    );
    expect(fingerprint({ a: 1, b: { c: [2, 1] } })).not.toBe(
      fingerprint({ a: 1, b: { c: [1, 2] } }),
    );
    expect(fingerprint({ a: '1' })).not.toBe(fingerprint({ a: 1 }));
  });
});
