import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { toE164 } from '../../../common/phone-number';
import { MessagingNumbersRepository } from '../messaging-numbers.repository';
import type { MessagingEarlyStatusRow } from './messaging-conversations.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingEarlyStatusesRepository } from './messaging-early-statuses.repository';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import type { DeliveryStatus } from './webhook-payload';

/** The platform's code for "not on the platform / cannot receive". */
export const UNDELIVERABLE = 131026;
/** The platform's code for "outside the 24-hour window: send a template". */
const NEEDS_TEMPLATE = 131047;

/** A delivery status of a message sent from one of our numbers. */
export interface StatusReport {
  /** The wamid. */
  id: string;
  status: DeliveryStatus;
  /** The customer's wa_id. */
  recipientId: string;
  error: { code: number; message: string } | undefined;
}

/**
 * Delivery statuses of our messages: they only move up (sent < delivered < read; failed wins);
 * failed 131026 remembers the number as undeliverable, failed 131047 flags the conversation for
 * a template. The platform may report a message before our record of its send holds the wamid:
 * such a status is kept and applied when the send is recorded (settle).
 */
@Injectable()
export class MessageStatusesService {
  constructor(
    private readonly clock: Clock,
    private readonly messages: MessagingMessagesRepository,
    private readonly conversations: MessagingConversationsRepository,
    private readonly numbers: MessagingNumbersRepository,
    private readonly early: MessagingEarlyStatusesRepository,
  ) {}

  /** A status from the webhook. */
  async apply(organizationId: string, integrationId: string, status: StatusReport): Promise<void> {
    if (await this.applyToMessage(organizationId, integrationId, status)) return;
    await this.early.add(organizationId, {
      integrationId,
      platformMessageId: status.id,
      status: status.status,
      recipientId: status.recipientId,
      errorCode: status.error?.code ?? null,
      errorMessage: status.error?.message ?? null,
    });
    // The send may have been recorded between our look and the row above: settle looks again
    // (and the send's own settle, after its record committed, sees the row if we do not).
    await this.settle(organizationId, integrationId, status.id);
  }

  /** Applies, then forgets, the statuses kept for a wamid once one of our messages holds it. */
  async settle(organizationId: string, integrationId: string, platformMessageId: string) {
    const kept = await this.early.forMessage(organizationId, integrationId, platformMessageId);
    for (const row of kept) {
      if (!(await this.applyToMessage(organizationId, integrationId, reportOf(row)))) return;
    }
    await this.early.remove(
      organizationId,
      kept.map((row) => row.id),
    );
  }

  async markUndeliverable(organizationId: string, waId: string, code = UNDELIVERABLE) {
    const number = toE164(waId) ?? `+${waId.replace(/\D/g, '')}`;
    await this.numbers.markUndeliverable(organizationId, number, code, this.clock.now());
  }

  /** False when none of our messages holds the wamid (yet). */
  private async applyToMessage(
    organizationId: string,
    integrationId: string,
    status: StatusReport,
  ): Promise<boolean> {
    const error = status.error
      ? { code: String(status.error.code), message: status.error.message }
      : undefined;
    const conversationId = await this.messages.applyStatus(
      organizationId,
      integrationId,
      status.id,
      status.status,
      error,
    );
    if (!conversationId) {
      // Not moved up (a repeat, or out of order), or not ours yet.
      const ours = await this.messages.findOutboundByPlatformId(
        organizationId,
        integrationId,
        status.id,
      );
      return ours !== undefined;
    }
    if (status.status !== 'failed') return true;
    if (status.error?.code === UNDELIVERABLE && status.recipientId !== '') {
      await this.markUndeliverable(organizationId, status.recipientId);
    }
    if (status.error?.code === NEEDS_TEMPLATE) {
      await this.conversations.setNeedsTemplate(organizationId, conversationId, true);
    }
    return true;
  }
}

const reportOf = (row: MessagingEarlyStatusRow): StatusReport => ({
  id: row.platformMessageId,
  status: row.status,
  recipientId: row.recipientId,
  error:
    row.errorCode === null ? undefined : { code: row.errorCode, message: row.errorMessage ?? '' },
});
