import { randomBytes } from 'node:crypto';

const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;
const processUnique = randomBytes(5);
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * A new id in the 24 lower-case hex ObjectId form that existing clients validate:
 * 4-byte seconds timestamp, 5 random bytes per process, 3-byte counter.
 */
export function newObjectId(): string {
  const id = Buffer.alloc(12);
  id.writeUInt32BE(Math.floor(Date.now() / 1000), 0);
  processUnique.copy(id, 4);
  counter = (counter + 1) % 0xffffff;
  id.writeUIntBE(counter, 9, 3);
  return id.toString('hex');
}

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}
