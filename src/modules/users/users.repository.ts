import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { users, type UserRow } from './users.schema';

export type NewUser = Omit<
  typeof users.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt'
>;

/** The part of a user that authenticates a request. */
export type UserAccess = Pick<UserRow, 'id' | 'organizationId' | 'role' | 'permissions'>;

@Injectable()
export class UsersRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: NewUser): Promise<UserRow> {
    const [row] = await this.database.db
      .insert(users)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  async findById(organizationId: string, id: string): Promise<UserRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.id, id)));
    return row;
  }

  /** What a request's principal needs, and no more: read on every authenticated request. */
  async findAccess(organizationId: string, id: string): Promise<UserAccess | undefined> {
    const [row] = await this.database.db
      .select({
        id: users.id,
        organizationId: users.organizationId,
        role: users.role,
        permissions: users.permissions,
      })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.id, id)));
    return row;
  }

  async list(organizationId: string): Promise<UserRow[]> {
    return this.database.db
      .select()
      .from(users)
      .where(eq(users.organizationId, organizationId))
      .orderBy(asc(users.createdAt), asc(users.id));
  }

  /** The organization's admins, oldest first (who gets the organization's notifications). */
  async listAdmins(organizationId: string): Promise<Pick<UserRow, 'id' | 'name' | 'email'>[]> {
    return this.database.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.role, 'admin')))
      .orderBy(asc(users.createdAt), asc(users.id));
  }

  /** Login is by e-mail before any organization is known; e-mails are unique across them. */
  async findByEmailForLogin(email: string): Promise<UserRow | undefined> {
    const [row] = await this.database.db.select().from(users).where(eq(users.email, email));
    return row;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.database.db
      .delete(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.id, id)))
      .returning({ id: users.id });
    return deleted.length > 0;
  }
}
