import type { InboundContent } from './inbound-content';
import { contentOf } from './webhook-content';
import { isObject, type Json, objects, str } from './webhook-json';

/**
 * Who wrote: their business-scoped user id (`user_id`, always sent since 2026), their phone
 * number (`wa_id`/`from`, withheld for some customers with a username), or both; never neither.
 */
export interface IncomingCustomer {
  userId: string | undefined;
  waId: string | undefined;
  name: string | undefined;
  username: string | undefined;
}

/** One customer message of a delivery, reduced to what the conversation keeps. */
export interface IncomingMessage {
  phoneNumberId: string;
  /** The platform's wamid: the dedupe key. */
  id: string;
  customer: IncomingCustomer;
  /** text, image, audio, button, interactive, location, contacts, reaction, … */
  type: string;
  /** The customer's words: the text, a media caption, the title of a tapped button. */
  text: string | undefined;
  /** Media, a tapped button's payload, a location, contact cards, a reaction. */
  content: InboundContent | undefined;
  sentAt: Date;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** A status of one of our outgoing messages. */
export interface IncomingStatus {
  phoneNumberId: string;
  /** The wamid of our message. */
  id: string;
  status: DeliveryStatus;
  /** The customer's phone number; '' when the message went to their user id only. */
  recipientId: string;
  at: Date;
  /** The first error of a failed status. */
  error: { code: number; message: string } | undefined;
}

export interface ParsedDelivery {
  messages: IncomingMessage[];
  statuses: IncomingStatus[];
}

const STATUSES: ReadonlySet<string> = new Set(['sent', 'delivered', 'read', 'failed']);
const MAX_ID = 200;

/**
 * The messages and statuses of one delivery (`object: whatsapp_business_account`). The platform
 * batches: every entry, change, message and status counts. Anything malformed is skipped, never
 * thrown: a signed delivery is the platform's, and a retry would not change it.
 */
export function parseDelivery(payload: unknown, now: Date): ParsedDelivery {
  const parsed: ParsedDelivery = { messages: [], statuses: [] };
  if (!isObject(payload) || payload.object !== 'whatsapp_business_account') return parsed;
  for (const entry of objects(payload.entry)) {
    for (const change of objects(entry.changes)) {
      if (change.field !== 'messages' || !isObject(change.value)) continue;
      const value = change.value;
      const phoneNumberId = isObject(value.metadata)
        ? str(value.metadata.phone_number_id, MAX_ID)
        : undefined;
      if (phoneNumberId === undefined) continue;
      const contacts = objects(value.contacts);
      for (const message of objects(value.messages)) {
        const id = str(message.id, MAX_ID);
        const type = str(message.type, 50);
        const customer = customerOf(message, contacts);
        if (id === undefined || type === undefined || customer === undefined) continue;
        parsed.messages.push({
          phoneNumberId,
          id,
          customer,
          type,
          ...contentOf(message, type),
          sentAt: timeOf(message.timestamp) ?? now,
        });
      }
      for (const status of objects(value.statuses)) {
        const id = str(status.id, MAX_ID);
        const state = str(status.status);
        if (id === undefined || state === undefined || !STATUSES.has(state)) continue;
        const [error] = objects(status.errors);
        parsed.statuses.push({
          phoneNumberId,
          id,
          status: state as DeliveryStatus,
          recipientId: str(status.recipient_id, MAX_ID) ?? '',
          at: timeOf(status.timestamp) ?? now,
          error:
            error && typeof error.code === 'number'
              ? {
                  code: error.code,
                  message: (str(error.title) ?? str(error.message) ?? '').slice(0, 500),
                }
              : undefined,
        });
      }
    }
  }
  return parsed;
}

/**
 * The sender, from the message (`from`, `from_user_id`) and its entry in `contacts` (`wa_id`,
 * `user_id`, `profile.name`, `profile.username`), found by either id, or the only contact when
 * the message names neither. Undefined when no id is known at all.
 */
function customerOf(message: Json, contacts: Json[]): IncomingCustomer | undefined {
  const from = str(message.from, MAX_ID);
  const fromUserId = str(message.from_user_id, MAX_ID);
  const contact =
    contacts.find(
      (candidate) =>
        (from !== undefined && str(candidate.wa_id, MAX_ID) === from) ||
        (fromUserId !== undefined && str(candidate.user_id, MAX_ID) === fromUserId),
    ) ??
    (from === undefined && fromUserId === undefined && contacts.length === 1
      ? contacts[0]
      : undefined);
  const profile = contact && isObject(contact.profile) ? contact.profile : undefined;
  const customer: IncomingCustomer = {
    userId: fromUserId ?? str(contact?.user_id, MAX_ID),
    waId: from ?? str(contact?.wa_id, MAX_ID),
    name: str(profile?.name, 200),
    username: str(profile?.username, 200),
  };
  return customer.userId === undefined && customer.waId === undefined ? undefined : customer;
}

/** Unix seconds as the platform sends them (a string). */
function timeOf(value: unknown): Date | undefined {
  const seconds = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 1e11) return undefined;
  return new Date(seconds * 1000);
}
