import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
import { Clock } from '../../common/clock';
import { PeriodicTask } from '../../common/periodic-task';
import { eventIdBoundary } from './event-id';
import { EventsRepository } from './events.repository';

/** How often each process that runs jobs purges expired events. */
const RETENTION_INTERVAL_MS = 60 * 60_000;
const PURGE_BATCH = 1_000;
const DAY_MS = 86_400_000;

/**
 * Keeps the outbox from growing without bound: events older than WEBHOOK_RETENTION_DAYS go,
 * with their deliveries and attempt log, once none of their deliveries is still pending or
 * held. Runs where jobs run (PROCESS_ROLE all or worker), hourly, in batches; several processes
 * may purge at once (SKIP LOCKED splits the rows).
 */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventRetention');
  private readonly task = new PeriodicTask(() => this.pass(), this.logger, 'Purge');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.process.role !== 'api') this.task.start(RETENTION_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One purge; how many events it deleted (also called by tests, which move the clock). */
  purge(): Promise<number> {
    return this.task.run();
  }

  private async pass(): Promise<number> {
    const cutoff = new Date(
      this.clock.now().getTime() - this.config.webhooks.retentionDays * DAY_MS,
    );
    const boundary = eventIdBoundary(cutoff);
    let deleted = 0;
    for (;;) {
      const batch = await this.events.deleteEndedBefore(boundary, PURGE_BATCH);
      deleted += batch;
      if (batch < PURGE_BATCH) break;
    }
    if (deleted > 0)
      this.logger.log(`Deleted ${deleted} events older than ${cutoff.toISOString()}`);
    return deleted;
  }
}
