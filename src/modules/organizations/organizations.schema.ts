import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, updatedAt } from '../../database/columns';

/** A workspace: owns every other resource; nothing is visible across organizations. */
export const organizations = pgTable('organizations', {
  id: objectIdPk(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type OrganizationRow = typeof organizations.$inferSelect;
