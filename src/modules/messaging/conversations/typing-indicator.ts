import { Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../../../common/describe-error';
import { withTimeout } from '../../../common/with-timeout';
import { GraphClient } from '../graph/graph-client';
import { GraphError } from '../graph/graph-error';
import { MessagingIntegrationsRepository } from '../messaging-integrations.repository';
import { MessagingIntegrationsService } from '../messaging-integrations.service';
import type { MessagingMessageRow } from './messaging-conversations.schema';

/** The longest the read receipt may hold up a reply: after that the reply goes without it. */
export const READ_RECEIPT_TIMEOUT_MS = 2_000;

/**
 * Tells the customer their messages were read and the agent is typing, while the model writes
 * the reply. A courtesy: whatever goes wrong (the platform down, slow or refusing) is logged and
 * the reply goes on.
 */
@Injectable()
export class TypingIndicator {
  private readonly logger = new Logger('Messaging');

  constructor(
    private readonly graph: GraphClient,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly connected: MessagingIntegrationsService,
  ) {}

  /**
   * Marks `latest` (and the messages before it) read, with the typing indicator. Never rejects,
   * and settles within READ_RECEIPT_TIMEOUT_MS.
   */
  async show(latest: MessagingMessageRow): Promise<void> {
    const wamid = latest.platformMessageId;
    if (!wamid) return;
    try {
      await withTimeout(this.send(latest, wamid), READ_RECEIPT_TIMEOUT_MS);
    } catch (error) {
      const platform =
        error instanceof GraphError
          ? { kind: error.kind, code: error.code, fbtraceId: error.fbtraceId }
          : describeUnknown(error);
      this.logger.warn({ messageId: latest.id, ...platform }, 'Read receipt not sent');
    }
  }

  private async send(latest: MessagingMessageRow, wamid: string): Promise<void> {
    const integration = await this.integrations.findById(
      latest.organizationId,
      latest.integrationId,
    );
    if (!integration) return;
    await this.graph.markReadAndTyping(
      this.connected.storedToken(integration),
      integration.phoneNumberId,
      wamid,
      READ_RECEIPT_TIMEOUT_MS,
    );
  }
}
