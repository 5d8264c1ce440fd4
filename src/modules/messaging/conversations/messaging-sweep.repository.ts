import { Injectable } from '@nestjs/common';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, type SQL } from 'drizzle-orm';
import { Database } from '../../../database';
import {
  messagingEarlyStatuses,
  messagingMessages,
  messagingWebhookEvents,
} from './messaging-conversations.schema';

/** An organization's message, as the sweeper hands it back to a job. */
export interface SweptMessage {
  organizationId: string;
  id: string;
}

/** Statuses waiting for a wamid that one of our messages now holds. */
export interface SettleableStatuses {
  organizationId: string;
  integrationId: string;
  platformMessageId: string;
}

/** Between `from` and `to` (a window: old enough to be lost, young enough to matter). */
export interface SweepWindow {
  from: Date;
  to: Date;
}

/**
 * The messaging sweeper's statements. They look across organizations (work that lost its job
 * belongs to whichever organization it belongs to), and hand back ids the jobs then read within
 * their organization; each takes a bounded batch.
 */
@Injectable()
export class MessagingSweepRepository {
  constructor(private readonly database: Database) {}

  /** Deliveries stored in the window and still not processed: their job was lost or gave up. */
  async unprocessedEvents({ from, to }: SweepWindow, limit: number): Promise<string[]> {
    const t = messagingWebhookEvents;
    const rows = await this.database.db
      .select({ id: t.id })
      .from(t)
      .where(and(isNull(t.processedAt), gt(t.receivedAt, from), lt(t.receivedAt, to)))
      .orderBy(asc(t.receivedAt))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /** Incoming messages stored in the window whose reply job never finished with them. */
  unhandledMessages({ from, to }: SweepWindow, limit: number): Promise<SweptMessage[]> {
    const t = messagingMessages;
    return this.database.db
      .select({ organizationId: t.organizationId, id: t.id })
      .from(t)
      .where(
        and(
          eq(t.direction, 'inbound'),
          isNull(t.handledAt),
          gt(t.createdAt, from),
          lt(t.createdAt, to),
        ),
      )
      .orderBy(asc(t.createdAt))
      .limit(limit);
  }

  /**
   * Outgoing messages tried and left pending (waiting for a retry) since before `to`, in the
   * window: no retry has touched them since, so their retry job was lost.
   */
  stuckSends({ from, to }: SweepWindow, limit: number): Promise<SweptMessage[]> {
    const t = messagingMessages;
    return this.database.db
      .select({ organizationId: t.organizationId, id: t.id })
      .from(t)
      .where(
        and(
          eq(t.status, 'pending'),
          gt(t.sendAttempts, 0),
          gt(t.updatedAt, from),
          lt(t.updatedAt, to),
        ),
      )
      .orderBy(asc(t.updatedAt))
      .limit(limit);
  }

  /** Early statuses whose message now holds the wamid (its send settled none of them). */
  settleableStatuses(limit: number): Promise<SettleableStatuses[]> {
    const s = messagingEarlyStatuses;
    const m = messagingMessages;
    return this.database.db
      .selectDistinct({
        organizationId: s.organizationId,
        integrationId: s.integrationId,
        platformMessageId: s.platformMessageId,
      })
      .from(s)
      .innerJoin(
        m,
        and(eq(m.integrationId, s.integrationId), eq(m.platformMessageId, s.platformMessageId)),
      )
      .limit(limit);
  }

  /** Deletes up to `limit` deliveries processed before `before`; answers how many. */
  deleteProcessedEvents(before: Date, limit: number): Promise<number> {
    const t = messagingWebhookEvents;
    return this.deleteBatch(t, and(isNotNull(t.processedAt), lt(t.processedAt, before)), limit);
  }

  /** Deletes up to `limit` early statuses received before `before` (no message of ours). */
  deleteEarlyStatuses(before: Date, limit: number): Promise<number> {
    const t = messagingEarlyStatuses;
    return this.deleteBatch(t, lt(t.receivedAt, before), limit);
  }

  /** Housekeeping: several sweepers may run at once (SKIP LOCKED splits the rows). */
  private deleteBatch(
    table: typeof messagingWebhookEvents | typeof messagingEarlyStatuses,
    where: SQL | undefined,
    limit: number,
  ): Promise<number> {
    return this.database.background(async () => {
      const batch = this.database.db
        .select({ id: table.id })
        .from(table)
        .where(where)
        .limit(limit)
        .for('update', { skipLocked: true });
      const deleted = await this.database.db
        .delete(table)
        .where(inArray(table.id, batch))
        .returning({ id: table.id });
      return deleted.length;
    });
  }
}
