import { createHmac, randomBytes } from 'node:crypto';

/** `X-Hub-Signature-256` as the platform computes it: HMAC-SHA256 of the raw body. */
export function hubSignature(appSecret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export const newWamid = (): string => `wamid.${randomBytes(18).toString('base64url')}`;

interface EventNumber {
  id: string;
  display_phone_number?: string;
}

const envelope = (number: EventNumber, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: {
              display_phone_number: (number.display_phone_number ?? '').replace(/\D/g, ''),
              phone_number_id: number.id,
            },
            ...value,
          },
        },
      ],
    },
  ],
});

/** A customer's text message to `number`, as the messages webhook delivers it. */
export function textMessageEvent(
  number: EventNumber,
  message: { from: string; text: string; id?: string; name?: string; sentAt?: Date },
) {
  const id = message.id ?? newWamid();
  const timestamp = String(Math.floor((message.sentAt ?? new Date()).getTime() / 1000));
  return {
    id,
    payload: envelope(number, {
      contacts: [{ profile: { name: message.name ?? 'Sheena Nelson' }, wa_id: message.from }],
      messages: [{ from: message.from, id, timestamp, type: 'text', text: { body: message.text } }],
    }),
  };
}

/** A delivery status of a message the business sent (`errors` on a failure). */
export function statusEvent(
  number: EventNumber,
  status: {
    id: string;
    status: 'sent' | 'delivered' | 'read' | 'failed';
    recipientId: string;
    error?: { code: number; title: string };
  },
) {
  return envelope(number, {
    statuses: [
      {
        id: status.id,
        status: status.status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: status.recipientId,
        ...(status.error
          ? {
              errors: [
                {
                  code: status.error.code,
                  title: status.error.title,
                  message: status.error.title,
                  error_data: { details: status.error.title },
                },
              ],
            }
          : {}),
      },
    ],
  });
}

/**
 * Who writes, as the webhooks of 2026 name them: the phone number (`from`, `wa_id`), the
 * business-scoped user id (`from_user_id`, `user_id`), or both; a customer with a username may
 * come without a number.
 */
export interface EventCustomer {
  phone?: string;
  userId?: string;
  name?: string;
  username?: string;
}

/**
 * A customer's message of any type to `number`: `fields` holds the part its type names
 * (`{ image: { id, mime_type, sha256, caption } }`, `{ button: { payload, text } }`,
 * `{ interactive: { type: 'list_reply', list_reply: { id, title } } }`, `{ contacts: [...] }`, …).
 */
export function customerMessageEvent(
  number: EventNumber,
  customer: EventCustomer,
  message: { type: string; fields: Record<string, unknown>; id?: string; sentAt?: Date },
) {
  const id = message.id ?? newWamid();
  const timestamp = String(Math.floor((message.sentAt ?? new Date()).getTime() / 1000));
  const profile = {
    name: customer.name ?? 'Sheena Nelson',
    ...(customer.username ? { username: customer.username } : {}),
  };
  return {
    id,
    payload: envelope(number, {
      contacts: [
        {
          profile,
          ...(customer.phone ? { wa_id: customer.phone } : {}),
          ...(customer.userId ? { user_id: customer.userId } : {}),
        },
      ],
      messages: [
        {
          ...(customer.phone ? { from: customer.phone } : {}),
          ...(customer.userId ? { from_user_id: customer.userId } : {}),
          id,
          timestamp,
          type: message.type,
          ...message.fields,
        },
      ],
    }),
  };
}
