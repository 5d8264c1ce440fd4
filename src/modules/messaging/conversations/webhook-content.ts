import {
  type ChoiceContent,
  type ContactCard,
  type InboundContent,
  isMediaType,
} from './inbound-content';
import { finite, isObject, type Json, objects, str } from './webhook-json';

/** Longest text kept from a message (the platform allows 4,096 characters). */
const MAX_TEXT = 4096;
const MAX_FIELD = 500;
/** Contact cards kept of one message, and phones and e-mails of one card. */
const MAX_CONTACTS = 10;
const MAX_CONTACT_ITEMS = 5;

/** What a message of `type` holds: the customer's words, and anything else it carries. */
export interface MessageContent {
  text: string | undefined;
  content: InboundContent | undefined;
}

/**
 * The part of a message its `type` names (Meta "messages webhook reference"): text, media (id,
 * mime type, sha256, caption, filename; `voice` on a voice note), a template quick-reply
 * `button` (text, payload), an `interactive` reply (button_reply or list_reply: id, title),
 * a location, contact cards, a reaction. Other types keep neither.
 */
export function contentOf(message: Json, type: string): MessageContent {
  // Contact cards are an array under `contacts`; every other type's part is an object.
  if (type === 'contacts') return contactsOf(message.contacts);
  const part = isObject(message[type]) ? message[type] : undefined;
  if (!part) return { text: undefined, content: undefined };
  if (type === 'text') return { text: str(part.body, MAX_TEXT), content: undefined };
  if (isMediaType(type)) {
    const mediaId = str(part.id, MAX_FIELD);
    return {
      text: str(part.caption, MAX_TEXT),
      content:
        mediaId === undefined
          ? undefined
          : {
              kind: 'media',
              mediaId,
              mimeType: str(part.mime_type, 200) ?? null,
              sha256: str(part.sha256, 200) ?? null,
              filename: str(part.filename, MAX_FIELD) ?? null,
              voice: part.voice === true,
            },
    };
  }
  if (type === 'button') {
    return choice({
      via: 'template_button',
      title: str(part.text, MAX_FIELD),
      payload: str(part.payload, MAX_FIELD),
    });
  }
  if (type === 'interactive') return interactiveOf(part);
  if (type === 'location') return { text: undefined, content: locationOf(part) };
  if (type === 'reaction') {
    return {
      text: undefined,
      content: {
        kind: 'reaction',
        emoji: str(part.emoji, 50) ?? null,
        messageId: str(part.message_id, MAX_FIELD) ?? null,
      },
    };
  }
  return { text: undefined, content: undefined };
}

function interactiveOf(part: Json): MessageContent {
  const reply = isObject(part.button_reply) ? part.button_reply : undefined;
  const row = isObject(part.list_reply) ? part.list_reply : undefined;
  const tapped = reply ?? row;
  if (!tapped) return { text: undefined, content: undefined };
  return choice({
    via: reply ? 'reply_button' : 'list',
    title: str(tapped.title, MAX_FIELD),
    payload: str(tapped.id, MAX_FIELD),
    description: str(tapped.description, MAX_FIELD),
  });
}

function choice(tapped: {
  via: ChoiceContent['via'];
  title: string | undefined;
  payload: string | undefined;
  description?: string | undefined;
}): MessageContent {
  const title = tapped.title ?? tapped.payload;
  if (title === undefined) return { text: undefined, content: undefined };
  return {
    text: title,
    content: {
      kind: 'choice',
      via: tapped.via,
      title,
      payload: tapped.payload ?? null,
      description: tapped.description ?? null,
    },
  };
}

function locationOf(part: Json): InboundContent | undefined {
  const latitude = finite(part.latitude);
  const longitude = finite(part.longitude);
  if (latitude === undefined || longitude === undefined) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return {
    kind: 'location',
    latitude,
    longitude,
    name: str(part.name, MAX_FIELD) ?? null,
    address: str(part.address, MAX_FIELD) ?? null,
    url: str(part.url, MAX_FIELD) ?? null,
  };
}

function contactsOf(value: unknown): MessageContent {
  const contacts = objects(value)
    .slice(0, MAX_CONTACTS)
    .map((card): ContactCard => {
      const name = isObject(card.name) ? card.name : {};
      const org = isObject(card.org) ? card.org : {};
      const given = [str(name.first_name, 200), str(name.last_name, 200)].filter(Boolean);
      return {
        name: str(name.formatted_name, MAX_FIELD) ?? (given.join(' ') || null),
        organization: str(org.company, MAX_FIELD) ?? null,
        phones: objects(card.phones)
          .slice(0, MAX_CONTACT_ITEMS)
          .flatMap((phone) => {
            const number = str(phone.phone, 100) ?? str(phone.wa_id, 100);
            return number
              ? [
                  {
                    phone: number,
                    waId: str(phone.wa_id, 100) ?? null,
                    type: str(phone.type, 50) ?? null,
                  },
                ]
              : [];
          }),
        emails: objects(card.emails)
          .slice(0, MAX_CONTACT_ITEMS)
          .flatMap((email) => str(email.email, 320) ?? []),
      };
    })
    .filter((card) => card.name !== null || card.phones.length > 0 || card.emails.length > 0);
  return {
    text: undefined,
    content: contacts.length > 0 ? { kind: 'contacts', contacts } : undefined,
  };
}
