import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
import { Clock } from '../../common/clock';
import { PeriodicTask } from '../../common/periodic-task';
import { CIRCUIT_PROBE_INTERVAL_MS } from './circuit-rules';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import type { DueDelivery } from './delivery-rows';
import { WebhookCircuitsRepository } from './webhook-circuits.repository';

/** How often the sweeper runs in each process that runs jobs. */
export const SWEEP_INTERVAL_MS = 15_000;
/** A delivery this far past due (or past its claim lease) has lost its job. */
export const SWEEP_OVERDUE_MS = 60_000;
const SWEEP_BATCH = 1_000;

export interface SweepReport {
  requeued: number;
  probes: number;
  released: number;
}

/**
 * Puts back on the queue what the queue lost. PostgreSQL is the record of every delivery; a
 * job in Redis is only its wake-up call, lost when Redis restarts without persistence or was
 * unreachable at enqueue. Every SWEEP_INTERVAL_MS: deliveries pending more than 60 s past due,
 * or sending past their lease (the worker died), are queued again (job ids dedupe against jobs
 * that still exist); due probes of open circuits go out; held deliveries whose circuit closed
 * are released. Runs where jobs run (PROCESS_ROLE all or worker); several processes may sweep
 * at once (SKIP LOCKED splits the rows).
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliverySweeper');
  private readonly task = new PeriodicTask(() => this.pass(), this.logger, 'Sweep');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly deliveries: DeliveryClaimsRepository,
    private readonly circuits: WebhookCircuitsRepository,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.process.role !== 'api') this.task.start(SWEEP_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One pass (also called by tests, which move the clock instead of waiting). */
  sweep(): Promise<SweepReport> {
    return this.task.run();
  }

  private async pass(): Promise<SweepReport> {
    const report: SweepReport = { requeued: 0, probes: 0, released: 0 };
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - SWEEP_OVERDUE_MS);
    report.requeued = await this.drainAll(() =>
      this.deliveries.takeOverdue(cutoff, now, SWEEP_BATCH),
    );
    const probes = await this.circuits.takeProbes(
      now,
      new Date(now.getTime() + CIRCUIT_PROBE_INTERVAL_MS),
    );
    await this.queue.enqueueDue(probes);
    report.probes = probes.length;
    report.released = await this.drainAll(() => this.circuits.releaseStrayHeld(now, SWEEP_BATCH));
    if (report.requeued + report.released > 0) {
      this.logger.log(`Re-queued ${report.requeued} overdue, released ${report.released} held`);
    }
    return report;
  }

  private async drainAll(take: () => Promise<DueDelivery[]>): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await take();
      await this.queue.enqueueDue(batch);
      total += batch.length;
      if (batch.length < SWEEP_BATCH) return total;
    }
  }
}
