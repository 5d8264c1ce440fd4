/** One customer message of a delivery, reduced to what the conversation keeps. */
export interface IncomingMessage {
  phoneNumberId: string;
  /** The platform's wamid: the dedupe key. */
  id: string;
  /** The customer's wa_id (their number's digits). */
  from: string;
  customerName: string | undefined;
  /** text, image, audio, … */
  type: string;
  /** The text, or a media caption. */
  text: string | undefined;
  sentAt: Date;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** A status of one of our outgoing messages. */
export interface IncomingStatus {
  phoneNumberId: string;
  /** The wamid of our message. */
  id: string;
  status: DeliveryStatus;
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
/** Longest text kept from a message (the platform allows 4,096 characters). */
const MAX_TEXT = 4096;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

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
        ? str(value.metadata.phone_number_id)
        : undefined;
      if (phoneNumberId === undefined) continue;
      const names = new Map(
        objects(value.contacts).map((contact) => [
          str(contact.wa_id),
          isObject(contact.profile) ? str(contact.profile.name) : undefined,
        ]),
      );
      for (const message of objects(value.messages)) {
        const id = str(message.id);
        const from = str(message.from);
        const type = str(message.type);
        if (id === undefined || from === undefined || type === undefined) continue;
        parsed.messages.push({
          phoneNumberId,
          id,
          from,
          customerName: names.get(from)?.slice(0, 200),
          type,
          text: textOf(message, type)?.slice(0, MAX_TEXT),
          sentAt: timeOf(message.timestamp) ?? now,
        });
      }
      for (const status of objects(value.statuses)) {
        const id = str(status.id);
        const state = str(status.status);
        if (id === undefined || state === undefined || !STATUSES.has(state)) continue;
        const [error] = objects(status.errors);
        parsed.statuses.push({
          phoneNumberId,
          id,
          status: state as DeliveryStatus,
          recipientId: str(status.recipient_id) ?? '',
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

function textOf(message: Json, type: string): string | undefined {
  const part = message[type];
  if (!isObject(part)) return undefined;
  if (type === 'text') return str(part.body);
  return str(part.caption);
}

/** Unix seconds as the platform sends them (a string). */
function timeOf(value: unknown): Date | undefined {
  const seconds = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 1e11) return undefined;
  return new Date(seconds * 1000);
}
