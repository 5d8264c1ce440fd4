import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { Database } from '../../../database';
import { messagingConversations, messagingMessages } from './messaging-conversations.schema';
import { isUnhandledInbound } from './messaging-messages.repository';

const t = messagingConversations;

const conversation = (organizationId: string, id: string) =>
  and(eq(t.organizationId, organizationId), eq(t.id, id));
const heldBy = (organizationId: string, id: string, workerId: string) =>
  and(conversation(organizationId, id), eq(t.replyWorkerId, workerId));
const FREE = { replyWorkerId: null, replyWorkerUntil: null };
const until = (ttlMs: number) => sql`now() + ${Math.ceil(ttlMs)}::int * interval '1 millisecond'`;

/**
 * The claim of the one worker answering a conversation, in the conversation's row: taken when
 * free or expired, renewed while held (the database's clock decides, the same for every
 * process), given back when the worker is done. A message's job that finds the conversation
 * claimed raises `reply_requested` instead, in the same statement, so the worker cannot give
 * the claim back without looking at that message: both statements lock the row, so whichever
 * comes second sees what the first did. (The release's NOT EXISTS alone would not do: a
 * statement that waited for the row's lock checks the row again, not its subquery.)
 */
@Injectable()
export class MessagingReplyClaimsRepository {
  constructor(private readonly database: Database) {}

  /** True when `workerId` now holds the claim; false when another worker does (it is told). */
  async claimOrRequest(
    organizationId: string,
    conversationId: string,
    workerId: string,
    ttlMs: number,
  ): Promise<boolean> {
    const free = sql`(${t.replyWorkerId} IS NULL OR ${t.replyWorkerUntil} < now())`;
    const [row] = await this.database.db
      .update(t)
      .set({
        replyWorkerId: sql`CASE WHEN ${free} THEN ${workerId} ELSE ${t.replyWorkerId} END`,
        replyWorkerUntil: sql`CASE WHEN ${free} THEN ${until(ttlMs)} ELSE ${t.replyWorkerUntil} END`,
        replyRequested: sql`NOT ${free}`,
      })
      .where(conversation(organizationId, conversationId))
      .returning({ workerId: t.replyWorkerId });
    return row?.workerId === workerId;
  }

  /**
   * Before each look at the pending messages: renews the claim and clears the requests (the
   * look that follows sees their messages). False when the claim was lost (it expired and
   * another worker took it).
   */
  resume(
    organizationId: string,
    conversationId: string,
    workerId: string,
    ttlMs: number,
  ): Promise<boolean> {
    return this.updateHeld(organizationId, conversationId, workerId, {
      replyWorkerUntil: until(ttlMs),
      replyRequested: false,
    });
  }

  /** Keeps the claim alive while the worker waits on the model. False when it was lost. */
  renew(
    organizationId: string,
    conversationId: string,
    workerId: string,
    ttlMs: number,
  ): Promise<boolean> {
    return this.updateHeld(organizationId, conversationId, workerId, {
      replyWorkerUntil: until(ttlMs),
    });
  }

  /**
   * Gives the claim back when nothing is left to answer: no request since the last look and no
   * incoming message unhandled. False: look again.
   */
  async releaseIfDone(
    organizationId: string,
    conversationId: string,
    workerId: string,
  ): Promise<boolean> {
    const m = messagingMessages;
    const unhandled = this.database.db
      .select({ id: m.id })
      .from(m)
      .where(
        and(
          eq(m.organizationId, organizationId),
          eq(m.conversationId, conversationId),
          isUnhandledInbound,
        ),
      );
    const rows = await this.database.db
      .update(t)
      .set(FREE)
      .where(
        and(
          heldBy(organizationId, conversationId, workerId),
          eq(t.replyRequested, false),
          sql`NOT EXISTS ${unhandled}`,
        ),
      )
      .returning({ id: t.id });
    return rows.length > 0;
  }

  /** Gives the claim back whatever is pending (the worker failed; its job's retry takes over). */
  async release(organizationId: string, conversationId: string, workerId: string): Promise<void> {
    await this.updateHeld(organizationId, conversationId, workerId, FREE);
  }

  private async updateHeld(
    organizationId: string,
    conversationId: string,
    workerId: string,
    values: PgUpdateSetSource<typeof t>,
  ): Promise<boolean> {
    const rows = await this.database.db
      .update(t)
      .set(values)
      .where(heldBy(organizationId, conversationId, workerId))
      .returning({ id: t.id });
    return rows.length > 0;
  }
}
