import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { type AttemptOutcome, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** A batch is written when it has this many attempts… */
export const ATTEMPT_LOG_BATCH_SIZE = 200;
/** …or when its first attempt has waited this long. */
export const ATTEMPT_LOG_FLUSH_MS = 5;

interface Waiting {
  outcome: AttemptOutcome;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Write-behind buffer of the delivery log: attempts finished within a few milliseconds of each
 * other are written together (one statement logs them and moves their deliveries on), which is
 * what lets delivery keep up with the queue. Each caller still awaits its own row, so an attempt
 * is recorded before its job completes and its next attempt is queued.
 */
@Injectable()
export class AttemptLog implements OnApplicationShutdown {
  private readonly logger = new Logger('AttemptLog');
  private buffer: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly flushing = new Set<Promise<void>>();

  constructor(private readonly deliveries: WebhookDeliveriesRepository) {}

  record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.buffer.push({ outcome, resolve, reject });
      if (this.buffer.length >= ATTEMPT_LOG_BATCH_SIZE) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), ATTEMPT_LOG_FLUSH_MS);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.flushing]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const done = this.write(batch).finally(() => this.flushing.delete(done));
    this.flushing.add(done);
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      await this.deliveries.recordOutcomes(batch.map((entry) => entry.outcome));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      // One bad row must not fail its neighbours: write them one by one.
      this.logger.warn(
        `Batch of ${batch.length} failed, retrying singly: ${JSON.stringify(describeUnknown(error))}`,
      );
      await Promise.all(batch.map((entry) => this.write([entry])));
    }
  }
}
