/** Media the customer sent, as the platform describes it (download it by `mediaId`). */
export type MediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

export interface MediaContent {
  kind: 'media';
  mediaId: string;
  mimeType: string | null;
  sha256: string | null;
  /** Documents: the file's name as the customer sent it. */
  filename: string | null;
  /** Audio recorded in the app (a voice note) rather than an audio file. */
  voice: boolean;
  /** Voice notes: what speech-to-text heard (null: not heard, see `transcription`). */
  transcript?: string | null;
  /** Voice notes: unset until the reply worker tried. */
  transcription?: 'done' | 'failed';
}

/** A template quick-reply button, an interactive reply button or a list row the customer tapped. */
export interface ChoiceContent {
  kind: 'choice';
  via: 'template_button' | 'reply_button' | 'list';
  /** The tapped button's or row's title (also the message's text). */
  title: string;
  /** The business's payload (template button) or id (reply button, list row). */
  payload: string | null;
  /** A list row's description. */
  description: string | null;
}

export interface LocationContent {
  kind: 'location';
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
  url: string | null;
}

export interface ContactCard {
  name: string | null;
  organization: string | null;
  phones: { phone: string; waId: string | null; type: string | null }[];
  emails: string[];
}

export interface ContactsContent {
  kind: 'contacts';
  contacts: ContactCard[];
}

/** A reaction to a message of the conversation: stored, never answered. */
export interface ReactionContent {
  kind: 'reaction';
  /** The emoji; null when the customer removed their reaction. */
  emoji: string | null;
  /** The wamid of the message reacted to. */
  messageId: string | null;
}

/** What an incoming message holds besides text (stored in its `content`). */
export type InboundContent =
  MediaContent | ChoiceContent | LocationContent | ContactsContent | ReactionContent;

export const MEDIA_TYPES: readonly MediaType[] = ['image', 'audio', 'video', 'document', 'sticker'];

export const isMediaType = (type: string): type is MediaType =>
  (MEDIA_TYPES as readonly string[]).includes(type);
