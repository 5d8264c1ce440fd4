import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { Semaphore } from '../../common/semaphore';

// One hash or verify per core at most; a burst waits its turn instead of queueing in libuv's
// 4-thread pool, where it would also hold up file reads and dns.lookup. Never all 4 threads.
export const HASH_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 3));

/** argon2id with the library's defaults (64 MiB, t=3, p=4), a deliberately slow hash. */
@Injectable()
export class PasswordHasher {
  readonly slots = new Semaphore(HASH_CONCURRENCY);
  // Verifying against a real hash when the user does not exist keeps the answer time the same.
  // Made on first need: hashing at construction would add ~50 ms to every start.
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return this.slots.run(() => argon2.hash(password, { type: argon2.argon2id }));
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      this.decoy ??= this.hash('decoy password that never matches');
      const decoy = await this.decoy;
      await this.slots.run(() => argon2.verify(decoy, password));
      return false;
    }
    return this.slots.run(() => argon2.verify(hash, password));
  }
}
