import { timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two strings (a signature, a token); false on any length difference. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
