import { Injectable } from '@nestjs/common';
import { and, eq, lt } from 'drizzle-orm';
import { Database } from '../../database';
import { idempotencyKeys, type IdempotencyKeyRow } from './idempotency.schema';

type KeyId = { operation: string; key: string };

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  /** Claims the key; false when a live record for it already exists. */
  async claim(
    organizationId: string,
    id: KeyId,
    requestHash: string,
    expiresAt: Date,
  ): Promise<boolean> {
    await this.database.db
      .delete(idempotencyKeys)
      .where(and(this.match(organizationId, id), lt(idempotencyKeys.expiresAt, new Date())));
    const inserted = await this.database.db
      .insert(idempotencyKeys)
      .values({ organizationId, ...id, requestHash, expiresAt })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return inserted.length > 0;
  }

  async find(organizationId: string, id: KeyId): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(idempotencyKeys)
      .where(this.match(organizationId, id));
    return row;
  }

  async complete(organizationId: string, id: KeyId, status: number, body: unknown): Promise<void> {
    await this.database.db
      .update(idempotencyKeys)
      .set({ responseStatus: status, responseBody: body })
      .where(this.match(organizationId, id));
  }

  async release(organizationId: string, id: KeyId): Promise<void> {
    await this.database.db.delete(idempotencyKeys).where(this.match(organizationId, id));
  }

  private match(organizationId: string, id: KeyId) {
    return and(
      eq(idempotencyKeys.organizationId, organizationId),
      eq(idempotencyKeys.operation, id.operation),
      eq(idempotencyKeys.key, id.key),
    );
  }
}
