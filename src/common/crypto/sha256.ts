import { createHash } from 'node:crypto';

/** SHA-256 of a string as hex: how a high-entropy secret (API key, stream token) is stored. */
export const sha256Hex = (value: string): string =>
  createHash('sha256').update(value).digest('hex');
