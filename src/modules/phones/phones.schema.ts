import { index, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';
import type { Integration } from '../telephony/telephony.types';
import { users } from '../users/users.schema';

export type PhoneStatus = 'active' | 'inactive';

/**
 * A provider account (a Twilio account, a Plivo auth id, a Telnyx key), shared by every number
 * and every organization that dials through it: its calls-per-second budget is paced here, under
 * this row's lock, whichever batch, organization or worker places the call.
 */
export const providerAccounts = pgTable(
  'provider_accounts',
  {
    id: objectIdPk(),
    integration: text('integration').$type<Integration>().notNull(),
    /** SHA-256 of what names the account at the provider (accountKeyOf): never the id itself. */
    accountKey: text('account_key').notNull(),
    /** The account's calls per second; null: the provider's default (ACCOUNT_CALLS_PER_SECOND). */
    callsPerSecond: real('calls_per_second'),
    /** The account places its next call no earlier. */
    nextDialAt: timestamp('next_dial_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('provider_accounts_key').on(t.integration, t.accountKey)],
);

/** A telephony number attached to the workspace, with its provider credentials sealed. */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: objectIdRef('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    integration: text('integration').$type<Integration>().notNull(),
    /** AES-256-GCM sealed JSON of the account id, secret and callback token (SecretBox). */
    credentials: text('credentials').notNull(),
    providerNumberId: text('provider_number_id').notNull(),
    /** Plivo application id or Telnyx Call Control Application id. */
    providerAppId: text('provider_app_id'),
    /**
     * provider_three: the Telnyx account's Ed25519 public key (raw 32 bytes, base64) that verifies
     * this number's callbacks; null: the server's PROVIDER_THREE_PUBLIC_KEY. Public, so not sealed
     * (the callback token beside it in `credentials` still gates the URL), and queryable: the
     * start-up check counts the numbers that rely on the server's key.
     */
    publicKey: text('public_key'),
    /** The account whose calls-per-second budget this number's calls spend (null: not linked yet). */
    providerAccountId: objectIdRef('provider_account_id').references(() => providerAccounts.id, {
      onDelete: 'set null',
    }),
    status: text('status').$type<PhoneStatus>().notNull().default('active'),
    webhooksCheckedAt: timestamp('webhooks_checked_at', { withTimezone: true }),
    /** The dialer's pacing: this number places its next call no earlier (DIALER_CALLS_PER_SECOND). */
    nextDialAt: timestamp('next_dial_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('phone_numbers_user_number_key').on(t.userId, t.phoneNumber),
    index('phone_numbers_organization_created_idx').on(t.organizationId, t.createdAt),
  ],
);

export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;
export type ProviderAccountRow = typeof providerAccounts.$inferSelect;
