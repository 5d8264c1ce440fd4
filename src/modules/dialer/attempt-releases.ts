import { Injectable } from '@nestjs/common';
import { Database } from '../../database';
import {
  CallPlacementRepository,
  type DialFacts,
  type RecordReturn,
} from './call-placement.repository';
import { AttemptsRepository } from './attempts.repository';
import { isFinal } from './progress-rules';

/** Whether the provider request went out (and was refused in a way that proves nothing was placed). */
export type Sent = 'never_sent' | 'refused_unplaced';

/**
 * Gives back a claimed attempt that placed no call, spending nothing: no attempt counted, no
 * ending for the breaker, no event (none was raised: call.started needs a placement). Where the
 * record goes is decided from what holds now: a batch cancelled meanwhile → `canceled` (as
 * cancel does to pending records), a number on the DNC list → `do_not_call` (as the claim
 * does), otherwise pending again at `retryAt` (null: due at once; the claim then checks the
 * calling window and holds it if closed). Used by placement (the dial check refused, no
 * provider slot in time, a 429 or a refused connection) and by recovery (an attempt whose
 * placement never started).
 */
@Injectable()
export class AttemptReleases {
  constructor(
    private readonly database: Database,
    private readonly attempts: AttemptsRepository,
    private readonly placements: CallPlacementRepository,
  ) {}

  /** Answers whether it was given back (false: placed, ended, or given back already). */
  release(phoneLogId: string, sent: Sent, retryAt: Date | null): Promise<boolean> {
    return this.database.transaction(async () => {
      const attempt = await this.attempts.lock(phoneLogId);
      if (!attempt) return false;
      const { log } = attempt;
      // Placed, ended, or (never_sent) a request under way: not ours to give back.
      if (isFinal(log.callStatus) || log.providerCallId !== null) return false;
      if ((log.placingAt !== null) !== (sent === 'refused_unplaced')) return false;
      const facts = await this.placements.dialFacts(log, attempt.record.phoneNumber);
      return this.placements.release(log, returnTo(facts, retryAt));
    });
  }
}

function returnTo(facts: DialFacts, retryAt: Date | null): RecordReturn {
  if (facts.queueStatus === 'completed') return { status: 'canceled', nextAttemptAt: null };
  if (facts.listed) return { status: 'do_not_call', nextAttemptAt: null };
  // Paused or deleted batches keep the record pending: a resume dials it.
  return { status: 'pending', nextAttemptAt: retryAt };
}
