import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../../database/columns';
import { organizations } from '../../organizations/organizations.schema';
import { messagingIntegrations } from '../messaging.schema';
import type { InboundContent } from './inbound-content';
import type { DeliveryStatus } from './webhook-payload';

/**
 * Every signed delivery of the platform's webhook, as received: answered 200 at once and
 * processed from the queue (the job carries this row's id, never the personal data).
 */
export const messagingWebhookEvents = pgTable(
  'messaging_webhook_events',
  {
    id: objectIdPk(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    // The sweeper's two questions: which lost their job, which are old enough to go.
    index('messaging_webhook_events_unprocessed_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} IS NULL`),
    index('messaging_webhook_events_processed_idx')
      .on(t.processedAt)
      .where(sql`${t.processedAt} IS NOT NULL`),
  ],
);

/**
 * One customer writing to one connected business number, known by their business-scoped user id
 * (BSUID), their phone number (wa_id), or both: a customer with a username may have no number.
 */
export const messagingConversations = pgTable(
  'messaging_conversations',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: objectIdRef('integration_id')
      .notNull()
      .references(() => messagingIntegrations.id, { onDelete: 'cascade' }),
    /** The customer's phone number (wa_id, digits), when the platform shares it. */
    customerWaId: text('customer_wa_id'),
    /** The customer's business-scoped user id (`user_id`, e.g. US.13491208655302741918). */
    customerUserId: text('customer_user_id'),
    customerName: text('customer_name'),
    /** The customer's WhatsApp username, when they set one. */
    customerUsername: text('customer_username'),
    /** The platform's time of the customer's latest message: it opens the 24-hour window. */
    lastCustomerMessageAt: timestamp('last_customer_message_at', { withTimezone: true }).notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    /** Free text was due outside the 24-hour window: only a template reaches the customer. */
    needsTemplate: boolean('needs_template').notNull().default(false),
    /**
     * The reply worker answering the conversation now (its claim's random id) and until when
     * its claim holds unless renewed: one worker at a time, across processes; a worker that
     * died leaves a claim that simply expires.
     */
    replyWorkerId: text('reply_worker_id'),
    replyWorkerUntil: timestamp('reply_worker_until', { withTimezone: true }),
    /** A message's job found the conversation claimed: its worker must look again before leaving. */
    replyRequested: boolean('reply_requested').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A BSUID is the customer's key; a number alone keys only conversations without one (a
    // recycled number reaching us with another BSUID is another customer).
    uniqueIndex('messaging_conversations_user_key')
      .on(t.integrationId, t.customerUserId)
      .where(sql`${t.customerUserId} IS NOT NULL`),
    uniqueIndex('messaging_conversations_phone_key')
      .on(t.integrationId, t.customerWaId)
      .where(sql`${t.customerUserId} IS NULL`),
    index('messaging_conversations_wa_id_idx').on(t.integrationId, t.customerWaId),
    check(
      'messaging_conversations_customer_check',
      sql`${t.customerWaId} IS NOT NULL OR ${t.customerUserId} IS NOT NULL`,
    ),
    index('messaging_conversations_organization_recent_idx').on(
      t.organizationId,
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

export type MessagingConversationRow = typeof messagingConversations.$inferSelect;

export type MessageDirection = 'inbound' | 'outbound';
/** What an outgoing message is for; null on incoming ones. */
export type MessagePurpose = 'welcome' | 'reply' | 'template';
/**
 * inbound: received. outbound: pending (being sent, or waiting for a retry), then the platform's
 * sent < delivered < read, or failed; not_sent when it was never handed to the platform (no
 * model, model error, outside the 24-hour window).
 */
export type MessageStatus =
  'received' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | 'not_sent';

export interface SentTemplate {
  name: string;
  language: string;
  /** The platform's `components` as sent (parameters filled in). */
  components: Record<string, unknown>[];
}

/** The conversation log: what the customer wrote and what was (or could not be) sent back. */
export const messagingMessages = pgTable(
  'messaging_messages',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: objectIdRef('conversation_id')
      .notNull()
      .references(() => messagingConversations.id, { onDelete: 'cascade' }),
    integrationId: objectIdRef('integration_id').notNull(),
    direction: text('direction').$type<MessageDirection>().notNull(),
    /** The platform's message type: text, template, image, … */
    type: text('type').notNull(),
    purpose: text('purpose').$type<MessagePurpose>(),
    /** Incoming: the customer's words (text, caption, tapped button); outgoing: what was sent. */
    text: text('text'),
    /**
     * Incoming: what is not text: media (id, type, mime type, sha256, filename; a voice note's
     * transcript), a tapped button or list row with its payload, a location, contact cards, a
     * reaction.
     */
    content: jsonb('content').$type<InboundContent>(),
    template: jsonb('template').$type<SentTemplate>(),
    /** The platform's wamid: given on receipt, or by the platform's answer to our send. */
    platformMessageId: text('platform_message_id'),
    status: text('status').$type<MessageStatus>().notNull(),
    /** The platform's numeric code, or ours (llm_not_configured, llm_failed, outside_window). */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The incoming message an outgoing welcome or reply answers. */
    replyToId: objectIdRef('reply_to_id'),
    /** Incoming: the message that started its conversation (the welcome goes first). */
    opensConversation: boolean('opens_conversation').notNull().default(false),
    sendAttempts: integer('send_attempts').notNull().default(0),
    /**
     * Incoming: when its reply job finished with it (answered, logged why not, or nothing to
     * answer). Still null a while after it was stored: the job was lost, the sweeper queues it.
     */
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** Incoming: the platform's timestamp; outgoing: when the platform accepted it. */
    platformAt: timestamp('platform_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Dedupe: a redelivered incoming message, or a status, finds its one row.
    uniqueIndex('messaging_messages_platform_id_key').on(t.integrationId, t.platformMessageId),
    // One welcome and one reply per incoming message, however often its job runs.
    uniqueIndex('messaging_messages_reply_key')
      .on(t.replyToId, t.purpose)
      .where(sql`${t.replyToId} IS NOT NULL`),
    index('messaging_messages_conversation_idx').on(t.conversationId, t.createdAt, t.id),
    index('messaging_messages_unhandled_idx')
      .on(t.createdAt)
      .where(sql`${t.direction} = 'inbound' AND ${t.handledAt} IS NULL`),
    index('messaging_messages_stuck_sends_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'pending' AND ${t.sendAttempts} > 0`),
  ],
);

export type MessagingMessageRow = typeof messagingMessages.$inferSelect;

/**
 * A status for a wamid none of our messages holds yet: the platform can report a message sent
 * or delivered before our UPDATE storing its wamid commits. Kept here, and applied when the send
 * is recorded (or by the sweeper); statuses of messages sent by others go with the retention.
 */
export const messagingEarlyStatuses = pgTable(
  'messaging_early_statuses',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: objectIdRef('integration_id')
      .notNull()
      .references(() => messagingIntegrations.id, { onDelete: 'cascade' }),
    platformMessageId: text('platform_message_id').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    /** The customer's wa_id, for a failed status saying the number is undeliverable. */
    recipientId: text('recipient_id').notNull(),
    errorCode: integer('error_code'),
    errorMessage: text('error_message'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messaging_early_statuses_key').on(t.integrationId, t.platformMessageId, t.status),
    index('messaging_early_statuses_received_idx').on(t.receivedAt),
  ],
);

export type MessagingEarlyStatusRow = typeof messagingEarlyStatuses.$inferSelect;
