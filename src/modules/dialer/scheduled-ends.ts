import { Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { BatchesRepository } from '../batches/batches.repository';

/**
 * Ends the batches whose endAt has come, once per scheduler pass (docs/dialer.md, Lifecycle):
 * each in its own transaction under its organization's dialing lock, as cancel does, with
 * statusReason end_at_reached. No claim was made for them from their endAt on (the listing and
 * the claim check it), and a claim made before cannot be placed after it (its permit closes at
 * endAt), so this closes only what waits; calls in flight finish.
 */
@Injectable()
export class ScheduledEnds {
  private readonly logger = new Logger('ScheduledEnds');

  constructor(private readonly batches: BatchesRepository) {}

  /** Answers how many batches it ended; never throws (the claims of the pass go on). */
  async endDue(now: Date): Promise<number> {
    let ended = 0;
    try {
      for (const batch of await this.batches.listEndDue(now)) {
        try {
          if (await this.batches.endAtEndAt(batch.organizationId, batch.id, now)) ended += 1;
        } catch (error) {
          this.warn(`Ending batch ${batch.id} at its endAt failed`, error);
        }
      }
    } catch (error) {
      this.warn('Listing the batches whose endAt has come failed', error);
    }
    return ended;
  }

  private warn(what: string, error: unknown): void {
    this.logger.warn(`${what}: ${JSON.stringify(describeUnknown(error))}`);
  }
}
