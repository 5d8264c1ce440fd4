import { Injectable } from '@nestjs/common';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Database } from '../../../database';
import { streamTokens } from './stream-tokens.schema';

/** The call a consumed stream token opens. */
export interface StreamGrant {
  organizationId: string;
  phoneLogId: string;
  /** The live call the stream must name (Plivo's CallUUID); null: the placed call's id. */
  liveCallId: string | null;
}

@Injectable()
export class StreamTokensRepository {
  constructor(private readonly database: Database) {}

  async insert(
    organizationId: string,
    phoneLogId: string,
    tokenHash: string,
    ttlSeconds: number,
    liveCallId: string | null,
  ): Promise<void> {
    await this.database.db.insert(streamTokens).values({
      organizationId,
      phoneLogId,
      tokenHash,
      liveCallId,
      // The database's clock, the one consume() compares against.
      expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})`,
    });
  }

  /**
   * Marks the token used and returns its call, in one statement: of two sockets presenting the
   * same token, exactly one wins. Looked up by the secret itself (the caller knows no
   * organization yet), like a callback's number.
   */
  async consume(tokenHash: string): Promise<StreamGrant | null> {
    const [row] = await this.database.db
      .update(streamTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(streamTokens.tokenHash, tokenHash),
          isNull(streamTokens.usedAt),
          gt(streamTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({
        organizationId: streamTokens.organizationId,
        phoneLogId: streamTokens.phoneLogId,
        liveCallId: streamTokens.liveCallId,
      });
    return row ?? null;
  }
}
