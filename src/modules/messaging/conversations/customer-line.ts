import type { ContactCard, InboundContent, MediaContent } from './inbound-content';

/** What of a stored incoming message the model and the knowledge search are given. */
export interface InboundMessageParts {
  type: string;
  text: string | null;
  content: InboundContent | null;
}

const MEDIA_NAMES: Record<string, string> = {
  image: 'a photo',
  video: 'a video',
  sticker: 'a sticker',
  document: 'a document',
  audio: 'an audio file',
};

/**
 * The customer's message as a line of the conversation the model reads: their text as it is,
 * anything else described in brackets (`[Tapped "Track my order" (payload ORDER_STATUS)]`,
 * `[The customer sent a photo] caption`, a voice note's transcript, a location, contact cards).
 * Undefined for what needs no answer: a reaction, a system notice, an empty message.
 */
export function customerLine(message: InboundMessageParts): string | undefined {
  const { content } = message;
  const text = message.text?.trim() || undefined;
  if (message.type === 'unsupported') {
    return '[The customer sent a kind of message this chat cannot show]';
  }
  switch (content?.kind) {
    case undefined:
      return text;
    case 'reaction':
      return undefined;
    case 'choice': {
      const payload = content.payload !== null ? ` (payload ${content.payload})` : '';
      if (content.via === 'list') {
        const description = content.description !== null ? `: ${content.description}` : '';
        return `[Chose "${content.title}"${description} from a list${payload}]`;
      }
      return `[Tapped "${content.title}"${payload}]`;
    }
    case 'media':
      return withText(mediaLine(message.type, content), text);
    case 'location':
      return `[The customer shared a location: ${joined([
        content.name,
        content.address,
        `${content.latitude}, ${content.longitude}`,
        content.url,
      ])}]`;
    case 'contacts':
      return `[The customer shared ${content.contacts.length === 1 ? 'a contact card' : 'contact cards'}: ${content.contacts.map(cardLine).join('; ')}]`;
  }
}

/** The words to search the knowledge bases with: text, caption, tapped title or transcript. */
export function searchTextOf(message: InboundMessageParts): string {
  const { content } = message;
  const transcript = content?.kind === 'media' ? content.transcript : undefined;
  const place = content?.kind === 'location' ? joined([content.name, content.address]) : '';
  return message.text?.trim() || transcript?.trim() || place;
}

function mediaLine(type: string, media: MediaContent): string {
  const heard = type === 'audio' ? media.transcript?.trim() : undefined;
  if (heard) return `[${media.voice ? 'Voice note' : 'Audio file'}] ${heard}`;
  if (type === 'audio' && media.voice) return '[The customer sent a voice note (not transcribed)]';
  const what = MEDIA_NAMES[type] ?? 'a file';
  const name = type === 'document' && media.filename !== null ? ` "${media.filename}"` : '';
  return `[The customer sent ${what}${name}]`;
}

function withText(line: string, text: string | undefined): string {
  return text === undefined ? line : `${line} ${text}`;
}

function cardLine(card: ContactCard): string {
  const reach = [...card.phones.map((phone) => phone.phone), ...card.emails];
  const who = joined([card.name, card.organization]) || 'no name';
  return reach.length > 0 ? `${who} (${reach.join(', ')})` : who;
}

function joined(parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => !!part).join(', ');
}
