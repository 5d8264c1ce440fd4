import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { MicroBatcher } from '../../common/micro-batcher';
import { type AttemptOutcome, DeliveryClaimsRepository } from './delivery-claims.repository';

/**
 * A batch is written when it has this many attempts or its first has waited this long; one at
 * a time, so what finishes meanwhile goes out together next (group commit).
 */
export const ATTEMPT_LOG_BATCH = { maxSize: 200, maxWaitMs: 5, maxConcurrent: 1 };

/**
 * Write-behind buffer of the delivery log: attempts finished within a few milliseconds of each
 * other are written together (one statement logs them and moves their deliveries on), which is
 * what lets delivery keep up with the queue. Each caller still awaits its own row, so an attempt
 * is recorded before its job completes and its next attempt is queued.
 */
@Injectable()
export class AttemptLog implements OnApplicationShutdown {
  private readonly logger = new Logger('AttemptLog');
  private readonly batcher = new MicroBatcher<AttemptOutcome, void>(
    (outcomes) => this.write(outcomes),
    ATTEMPT_LOG_BATCH,
  );

  constructor(private readonly deliveries: DeliveryClaimsRepository) {}

  record(outcome: AttemptOutcome): Promise<void> {
    return this.batcher.add(outcome);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batcher.drain();
  }

  private async write(outcomes: AttemptOutcome[]): Promise<void[]> {
    try {
      await this.deliveries.recordOutcomes(outcomes);
    } catch (error) {
      if (outcomes.length === 1) throw error;
      // One bad row must not fail its neighbours: write them one by one.
      this.logger.warn(
        `Batch of ${outcomes.length} failed, retrying singly: ${JSON.stringify(describeUnknown(error))}`,
      );
      await Promise.all(outcomes.map((outcome) => this.deliveries.recordOutcomes([outcome])));
    }
    return outcomes.map(() => undefined);
  }
}
