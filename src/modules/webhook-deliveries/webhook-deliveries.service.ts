import { ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { detach } from '../../common/detach';
import { toPagination } from '../../common/page.query';
import { Database } from '../../database';
import { EventsService } from '../events/events.service';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { DeliveryQueue } from './delivery-queue';
import { reportedStatus } from './delivery-status';
import type {
  DeliveryListDto,
  DeliveryDto,
  QueuedDeliveriesDto,
  TestDeliveryDto,
} from './dto/delivery.dto';
import type { ListDeliveriesQuery, RecoverDeliveriesDto } from './dto/delivery-queries';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import type { WebhookDeliveryAttemptRow, WebhookDeliveryRow } from './webhook-deliveries.schema';

/** What a replay made due again (and queued), per webhook and in all. */
export interface ReplayedDeliveries {
  webhooks: Array<{ organizationId: string; webhookId: string; due: number; queued: number }>;
  due: number;
  queued: number;
}

/** The delivery log and the redelivery controls of one webhook. */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger(WebhookDeliveriesService.name);

  constructor(
    private readonly database: Database,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly events: EventsService,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  async list(
    organizationId: string,
    webhookId: string,
    query: ListDeliveriesQuery,
  ): Promise<DeliveryListDto> {
    await this.requireWebhook(organizationId, webhookId);
    const now = this.clock.now();
    const { rows, total } = await this.deliveries.list(
      organizationId,
      webhookId,
      query,
      { offset: (query.page - 1) * query.limit, limit: query.limit },
      now,
    );
    const attempts = await this.deliveries.attemptsOf(rows.map((row) => row.id));
    return {
      deliveries: rows.map((row) =>
        toDeliveryDto(
          row,
          attempts.filter((attempt) => attempt.deliveryId === row.id),
          now,
        ),
      ),
      pagination: toPagination(total, query.page, query.limit),
    };
  }

  async retry(organizationId: string, webhookId: string, deliveryId: string): Promise<void> {
    await this.requireWebhook(organizationId, webhookId);
    const due = await this.deliveries.markManual(
      organizationId,
      webhookId,
      deliveryId,
      this.clock.now(),
    );
    if (!due) {
      const exists = await this.deliveries.findDelivery(organizationId, webhookId, deliveryId);
      if (!exists) throw new NotFoundException('Delivery not found');
      throw new ConflictException('An attempt of this delivery is running; retry when it ends');
    }
    await this.queue.enqueue(due.id, due.attemptNo, { trigger: due.trigger });
  }

  async recover(
    organizationId: string,
    webhookId: string,
    dto: RecoverDeliveriesDto,
  ): Promise<QueuedDeliveriesDto> {
    await this.requireWebhook(organizationId, webhookId);
    const due = await this.deliveries.markRecover(
      organizationId,
      webhookId,
      { since: dto.since, until: dto.until },
      this.clock.now(),
    );
    // Background work: the rows are already due again, so anything not queued now (Redis down,
    // process stopped) is picked up by the sweeper.
    detach(this.queue.enqueueDue(due), {
      what: 'Queueing recovered deliveries',
      logger: this.logger,
    });
    return { queued: due.length };
  }

  /**
   * The operator CLI's replay: every delivery that ended failed in the window is due again,
   * for one webhook, one organization's webhooks, or every webhook. Unlike recover(), waits
   * until the attempts are queued (a CLI exits right after); any not queued (Redis down) are
   * due in PostgreSQL, so the sweeper sends them.
   */
  async replayFailed(options: {
    webhookId?: string;
    organizationId?: string;
    since: Date;
    until?: Date;
  }): Promise<ReplayedDeliveries> {
    const window = { since: options.since, until: options.until };
    const targets = options.webhookId
      ? [
          {
            organizationId: await this.organizationOfWebhook(options.webhookId),
            webhookId: options.webhookId,
          },
        ]
      : await this.deliveries.webhooksWithFailed(window, options.organizationId);
    const replayed: ReplayedDeliveries = { webhooks: [], due: 0, queued: 0 };
    for (const { organizationId, webhookId } of targets) {
      const due = await this.deliveries.markRecover(
        organizationId,
        webhookId,
        window,
        this.clock.now(),
      );
      const queued = await this.queue.enqueueDue(due);
      replayed.webhooks.push({ organizationId, webhookId, due: due.length, queued });
      replayed.due += due.length;
      replayed.queued += queued;
    }
    return replayed;
  }

  async sendTest(organizationId: string, webhookId: string): Promise<TestDeliveryDto> {
    await this.requireWebhook(organizationId, webhookId);
    const event = await this.database.transaction(() =>
      this.events.raiseTest(organizationId, webhookId),
    );
    return { eventId: event.id, deliveryId: event.deliveryIds[0] };
  }

  private async organizationOfWebhook(webhookId: string): Promise<string> {
    const organizationId = await this.webhooks.organizationOf(webhookId);
    if (!organizationId) throw new NotFoundException('Webhook not found');
    return organizationId;
  }

  private async requireWebhook(organizationId: string, webhookId: string): Promise<void> {
    const webhook = await this.webhooks.findById(organizationId, webhookId);
    if (!webhook) throw new NotFoundException('Webhook not found');
  }
}

function toDeliveryDto(
  row: WebhookDeliveryRow,
  attempts: WebhookDeliveryAttemptRow[],
  now: Date,
): DeliveryDto {
  const status = reportedStatus(row, now);
  return {
    _id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status,
    attemptCount: row.attemptCount,
    nextAttemptAt: status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    attempts: attempts.map((attempt) => ({
      attemptNo: attempt.attemptNo,
      trigger: attempt.trigger,
      status: attempt.succeeded ? 'succeeded' : 'failed',
      responseStatus: attempt.responseStatus,
      durationMs: attempt.durationMs,
      errorClass: attempt.errorClass,
      attemptedAt: attempt.attemptedAt.toISOString(),
      nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
    })),
  };
}
