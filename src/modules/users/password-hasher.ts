import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3, p=4), a deliberately slow hash. */
@Injectable()
export class PasswordHasher {
  // Verifying against a real hash when the user does not exist keeps the answer time the same.
  // Made on first need: hashing at construction would add ~50 ms to every start.
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      this.decoy ??= argon2.hash('decoy password that never matches');
      await argon2.verify(await this.decoy, password);
      return false;
    }
    return argon2.verify(hash, password);
  }
}
