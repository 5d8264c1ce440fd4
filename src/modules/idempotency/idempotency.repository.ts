import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { and, eq, gt, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { idempotencyKeys, type IdempotencyKeyRow } from './idempotency.schema';

type KeyId = { operation: string; key: string };

/** The database's clock, so that every process of the service agrees on leases. */
const inSeconds = (seconds: number): SQL => sql`now() + make_interval(secs => ${seconds})`;

/** Idempotency-Key records. Times come from PostgreSQL's now(). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  /**
   * Claims the key for `leaseSeconds`: a new key, one whose record has expired, or a claim whose
   * lease ran out (its request died). Returns the claim id, or undefined when a live record
   * holds the key.
   */
  async claim(
    organizationId: string,
    id: KeyId,
    requestHash: string,
    leaseSeconds: number,
  ): Promise<string | undefined> {
    const claimId = randomUUID();
    const record = {
      requestHash,
      claimId,
      responseStatus: null,
      responseBody: null,
      createdAt: sql`now()`,
      expiresAt: inSeconds(leaseSeconds),
    };
    const claimed = await this.database.db
      .insert(idempotencyKeys)
      .values({ organizationId, ...id, ...record })
      .onConflictDoUpdate({
        target: [idempotencyKeys.organizationId, idempotencyKeys.operation, idempotencyKeys.key],
        set: record,
        setWhere: lt(idempotencyKeys.expiresAt, sql`now()`),
      })
      .returning({ claimId: idempotencyKeys.claimId });
    return claimed.length > 0 ? claimId : undefined;
  }

  async find(organizationId: string, id: KeyId): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(idempotencyKeys)
      .where(this.match(organizationId, id));
    return row;
  }

  /** Extends a claim's lease that has not run out yet; a lapsed claim may already be taken. */
  async renew(
    organizationId: string,
    id: KeyId,
    claimId: string,
    leaseSeconds: number,
  ): Promise<void> {
    await this.database.db
      .update(idempotencyKeys)
      .set({ expiresAt: inSeconds(leaseSeconds) })
      .where(
        and(this.claimed(organizationId, id, claimId), gt(idempotencyKeys.expiresAt, sql`now()`)),
      );
  }

  /**
   * Stores the answer of the claim, kept `ttlSeconds`; false when the claim is no longer this
   * request's (its lease ran out and another request took the key).
   */
  async complete(
    organizationId: string,
    id: KeyId,
    claimId: string,
    body: unknown,
    ttlSeconds: number,
  ): Promise<boolean> {
    const completed = await this.database.db
      .update(idempotencyKeys)
      .set({ responseStatus: 200, responseBody: body ?? null, expiresAt: inSeconds(ttlSeconds) })
      .where(this.claimed(organizationId, id, claimId))
      .returning({ key: idempotencyKeys.key });
    return completed.length > 0;
  }

  async release(organizationId: string, id: KeyId, claimId: string): Promise<void> {
    await this.database.db.delete(idempotencyKeys).where(this.claimed(organizationId, id, claimId));
  }

  /** The record while `claimId` holds it, not yet completed. */
  private claimed(organizationId: string, id: KeyId, claimId: string) {
    return and(
      this.match(organizationId, id),
      eq(idempotencyKeys.claimId, claimId),
      isNull(idempotencyKeys.responseStatus),
    );
  }

  private match(organizationId: string, id: KeyId) {
    return and(
      eq(idempotencyKeys.organizationId, organizationId),
      eq(idempotencyKeys.operation, id.operation),
      eq(idempotencyKeys.key, id.key),
    );
  }
}
