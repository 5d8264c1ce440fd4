import { timestamp, varchar } from 'drizzle-orm/pg-core';
import { newObjectId } from '../common/object-id';

/** Primary key in the 24-hex ObjectId form. */
export const objectIdPk = () => varchar('id', { length: 24 }).primaryKey().$defaultFn(newObjectId);

/** A reference to another row's ObjectId-form key. */
export const objectIdRef = (name: string) => varchar(name, { length: 24 });

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
