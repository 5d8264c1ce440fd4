import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `msg_` + a ULID (48-bit millisecond time, 80 random bits, Crockford base32): the Standard
 * Webhooks id form, time-ordered, and free of the `.` the signed content uses as separator.
 */
export function newEventId(now: Date): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(now.getTime(), 0, 6);
  randomBytes(10).copy(bytes, 6);
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let i = 0; i < 26; i++) {
    text = CROCKFORD[Number(value & 31n)] + text;
    value >>= 5n;
  }
  return `msg_${text}`;
}
