import { Injectable } from '@nestjs/common';
import { isObjectId } from '../../common/object-id';
import { type Attempt, AttemptsRepository } from '../dialer/attempts.repository';
import type { ParsedCallStatus } from '../telephony/telephony.types';
import type { VerifiedCallback } from './callback-verifier';

/** The attempt a verified callback names, locked for the callback's transaction. */
@Injectable()
export class CallbackAttempts {
  constructor(private readonly attempts: AttemptsRepository) {}

  /**
   * The attempt the callback names (`call` in our URL; Telnyx also echoes it as client_state),
   * locked, if it is an attempt of this very number; else null.
   */
  async lock(verified: VerifiedCallback, parsed: ParsedCallStatus): Promise<Attempt | null> {
    const named = new URL(verified.callback.url).searchParams.get('call');
    const echoed = parsed.clientState;
    if (named && echoed && named !== echoed) return null;
    const id = named ?? echoed;
    if (!isObjectId(id)) return null;
    const attempt = await this.attempts.lock(id);
    if (
      !attempt ||
      attempt.log.phoneId !== verified.phone.id ||
      attempt.batch.organizationId !== verified.phone.organizationId
    )
      return null;
    return attempt;
  }
}
