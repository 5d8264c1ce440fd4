import { Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { Database } from '../../database';
import { apiKeys, type ApiKeyRow } from './api-keys.schema';

export type NewApiKey = Pick<ApiKeyRow, 'name' | 'publicId' | 'secretHash' | 'createdByUserId'>;

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: NewApiKey): Promise<ApiKeyRow> {
    const [row] = await this.database.db
      .insert(apiKeys)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  listActive(organizationId: string): Promise<ApiKeyRow[]> {
    return this.database.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  }

  /** Returns whether an active key was revoked. */
  async revoke(organizationId: string, id: string, at: Date): Promise<boolean> {
    const revoked = await this.database.db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(
        and(
          eq(apiKeys.organizationId, organizationId),
          eq(apiKeys.id, id),
          isNull(apiKeys.revokedAt),
        ),
      )
      .returning({ id: apiKeys.id });
    return revoked.length > 0;
  }

  /** The organization of a key named by id alone: the operator CLI's look-up. */
  async organizationOf(id: string): Promise<string | undefined> {
    const [row] = await this.database.db
      .select({ organizationId: apiKeys.organizationId })
      .from(apiKeys)
      .where(eq(apiKeys.id, id));
    return row?.organizationId;
  }

  /** A presented key names no organization until it is found, so this lookup spans them all. */
  async findActiveByPublicId(publicId: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.publicId, publicId), isNull(apiKeys.revokedAt)));
    return row;
  }

  /** Records use at most once per interval, so busy keys do not write on every request. */
  async touchLastUsed(
    organizationId: string,
    id: string,
    at: Date,
    intervalMs: number,
  ): Promise<void> {
    await this.database.db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(
        and(
          eq(apiKeys.organizationId, organizationId),
          eq(apiKeys.id, id),
          or(
            isNull(apiKeys.lastUsedAt),
            lt(apiKeys.lastUsedAt, new Date(at.getTime() - intervalMs)),
          ),
        ),
      );
  }
}
