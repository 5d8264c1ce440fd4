import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { PeriodicTask } from '../../../common/periodic-task';
import { type AppConfig, InjectConfig } from '../../../config';
import { JobName, JobQueue } from '../../../queue';
import { MessageStatusesService } from './message-statuses.service';
import { MessagingSweepRepository, type SweepWindow } from './messaging-sweep.repository';

/** How often the sweeper runs in each process that runs jobs. */
export const MESSAGING_SWEEP_INTERVAL_MS = 30_000;
/**
 * Work still undone this long after it was stored has lost its job: jobs are queued within
 * milliseconds of the commit, and while a queued one waits, backs off or runs, queueing it again
 * (same job id) adds nothing.
 */
export const MESSAGING_SWEEP_GRACE_MS = 60_000;
/** Nothing older is taken back: a reply past the customer's 24-hour window is not sent anyway. */
const HORIZON_MS = 24 * 3_600_000;
const SWEEP_BATCH = 500;
export const PRUNE_BATCH = 1_000;

export interface MessagingSweepReport {
  /** Deliveries queued again for processing. */
  events: number;
  /** Incoming messages queued again for their reply. */
  replies: number;
  /** Outgoing messages queued again for a retry of their send. */
  sends: number;
  /** wamids whose early statuses were applied. */
  statuses: number;
  /** Processed deliveries and stray early statuses deleted (past the retention). */
  pruned: number;
}

/**
 * Puts back on the queue what the queue lost, and keeps the raw deliveries bounded. Every
 * MESSAGING_SWEEP_INTERVAL_MS where jobs run (PROCESS_ROLE all or worker): deliveries stored but
 * not processed, incoming messages the reply job never finished and outgoing messages waiting for
 * a retry nobody queued are queued again under their usual job ids (the wamid dedupe and the one
 * answer per message keep replies at one); early statuses whose send is now recorded are
 * applied; processed deliveries and unclaimed early statuses older than
 * MESSAGING_DELIVERY_RETENTION_HOURS are deleted in batches.
 */
@Injectable()
export class MessagingSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MessagingSweeper');
  private readonly task = new PeriodicTask(() => this.pass(), this.logger, 'Messaging sweep');
  private readonly retentionMs: number;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly sweep: MessagingSweepRepository,
    private readonly statuses: MessageStatusesService,
  ) {
    this.retentionMs = config.messaging.deliveryRetentionHours * 3_600_000;
  }

  onApplicationBootstrap(): void {
    if (this.config.process.role !== 'api') this.task.start(MESSAGING_SWEEP_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One pass now (tests call it, moving the clock instead of waiting). */
  run(): Promise<MessagingSweepReport> {
    return this.task.run();
  }

  private async pass(): Promise<MessagingSweepReport> {
    const now = this.clock.now().getTime();
    const window: SweepWindow = {
      from: new Date(now - HORIZON_MS),
      to: new Date(now - MESSAGING_SWEEP_GRACE_MS),
    };
    const report: MessagingSweepReport = {
      events: await this.requeue(this.sweep.unprocessedEvents(window, SWEEP_BATCH), (eventId) =>
        this.jobs.enqueue(
          JobName.ProcessMessagingEvent,
          { eventId },
          { jobId: `messaging-event-${eventId}` },
        ),
      ),
      replies: await this.requeue(
        this.sweep.unhandledMessages(window, SWEEP_BATCH),
        ({ organizationId, id }) =>
          this.jobs.enqueue(
            JobName.ReplyToMessage,
            { organizationId, messageId: id },
            { jobId: `messaging-reply-${id}` },
          ),
      ),
      sends: await this.requeue(
        this.sweep.stuckSends(window, SWEEP_BATCH),
        ({ organizationId, id }) =>
          this.jobs.enqueue(
            JobName.SendMessage,
            { organizationId, messageId: id },
            { jobId: `messaging-send-${id}` },
          ),
      ),
      statuses: await this.requeue(
        this.sweep.settleableStatuses(SWEEP_BATCH),
        ({ organizationId, integrationId, platformMessageId }) =>
          this.statuses.settle(organizationId, integrationId, platformMessageId),
      ),
      pruned: await this.prune(new Date(now - this.retentionMs)),
    };
    if (report.events + report.replies + report.sends + report.statuses > 0) {
      this.logger.log(report, 'Queued lost messaging work again');
    }
    return report;
  }

  /** Hands each row found back to its work; answers how many. */
  private async requeue<T>(found: Promise<T[]>, work: (row: T) => Promise<void>) {
    const rows = await found;
    for (const row of rows) await work(row);
    return rows.length;
  }

  private async prune(before: Date): Promise<number> {
    let pruned = 0;
    for (const remove of [
      (limit: number) => this.sweep.deleteProcessedEvents(before, limit),
      (limit: number) => this.sweep.deleteEarlyStatuses(before, limit),
    ]) {
      for (;;) {
        const deleted = await remove(PRUNE_BATCH);
        pruned += deleted;
        if (deleted < PRUNE_BATCH) break;
      }
    }
    return pruned;
  }
}
