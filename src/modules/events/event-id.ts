import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ID_PREFIX = 'msg_';

/** `msg_` + the 26-character ULID of a millisecond time and 10 bytes of randomness. */
function encode(time: Date, random: Buffer): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(time.getTime(), 0, 6);
  random.copy(bytes, 6);
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let i = 0; i < 26; i++) {
    text = CROCKFORD[Number(value & 31n)] + text;
    value >>= 5n;
  }
  return ID_PREFIX + text;
}

/**
 * `msg_` + a ULID (48-bit millisecond time, 80 random bits, Crockford base32): the Standard
 * Webhooks id form, time-ordered, and free of the `.` the signed content uses as separator.
 */
export function newEventId(now: Date): string {
  return encode(now, randomBytes(10));
}

/**
 * The lowest id an event made at `time` can have: every event made earlier sorts below it
 * (Crockford's alphabet is in ascending order, so text order is time order).
 */
export function eventIdBoundary(time: Date): string {
  return encode(time, Buffer.alloc(10));
}
