import { customerLine, type InboundMessageParts, searchTextOf } from './customer-line';
import type { MediaContent } from './inbound-content';

const media = (overrides: Partial<MediaContent> = {}): MediaContent => ({
  kind: 'media',
  mediaId: 'm1',
  mimeType: 'image/jpeg',
  sha256: null,
  filename: null,
  voice: false,
  ...overrides,
});
const message = (parts: Partial<InboundMessageParts>): InboundMessageParts => ({
  type: 'text',
  text: null,
  content: null,
  ...parts,
});

describe('customerLine', () => {
  it.each<[string, Partial<InboundMessageParts>, string | undefined]>([
    ['text as it is', { text: 'Hi there' }, 'Hi there'],
    ['an empty text as nothing', { text: '  ' }, undefined],
    [
      'a template quick-reply tap with its payload',
      {
        type: 'button',
        text: 'Track my order',
        content: {
          kind: 'choice',
          via: 'template_button',
          title: 'Track my order',
          payload: 'ORDER_STATUS',
          description: null,
        },
      },
      '[Tapped "Track my order" (payload ORDER_STATUS)]',
    ],
    [
      'a list row with its description and id',
      {
        type: 'interactive',
        text: 'Sunday',
        content: {
          kind: 'choice',
          via: 'list',
          title: 'Sunday',
          payload: 'ROW_2',
          description: '10:00 to 16:00',
        },
      },
      '[Chose "Sunday": 10:00 to 16:00 from a list (payload ROW_2)]',
    ],
    [
      'a photo with its caption',
      { type: 'image', text: 'Is this the lounge?', content: media() },
      '[The customer sent a photo] Is this the lounge?',
    ],
    ['a photo without caption', { type: 'image', content: media() }, '[The customer sent a photo]'],
    [
      'a document by its name',
      { type: 'document', content: media({ filename: 'invoice.pdf' }) },
      '[The customer sent a document "invoice.pdf"]',
    ],
    ['a sticker', { type: 'sticker', content: media() }, '[The customer sent a sticker]'],
    [
      'a voice note heard',
      { type: 'audio', content: media({ voice: true, transcript: 'open on sunday' }) },
      '[Voice note] open on sunday',
    ],
    [
      'a voice note not heard',
      { type: 'audio', content: media({ voice: true, transcription: 'failed', transcript: null }) },
      '[The customer sent a voice note (not transcribed)]',
    ],
    [
      'an audio file',
      { type: 'audio', content: media({ mimeType: 'audio/mpeg' }) },
      '[The customer sent an audio file]',
    ],
    [
      'a location with its name, address and coordinates',
      {
        type: 'location',
        content: {
          kind: 'location',
          latitude: 37.48,
          longitude: -122.14,
          name: 'Philz',
          address: '1 Main St',
          url: null,
        },
      },
      '[The customer shared a location: Philz, 1 Main St, 37.48, -122.14]',
    ],
    [
      'contact cards with their numbers and e-mails',
      {
        type: 'contacts',
        content: {
          kind: 'contacts',
          contacts: [
            {
              name: 'Ana Silva',
              organization: 'Acme',
              phones: [{ phone: '+1 650 555 1234', waId: null, type: null }],
              emails: ['ana@example.com'],
            },
            { name: null, organization: null, phones: [], emails: ['x@example.com'] },
          ],
        },
      },
      '[The customer shared contact cards: Ana Silva, Acme (+1 650 555 1234, ana@example.com); no name (x@example.com)]',
    ],
    [
      'a reaction as nothing to answer',
      { type: 'reaction', content: { kind: 'reaction', emoji: '👍', messageId: 'wamid.X' } },
      undefined,
    ],
    [
      'an unsupported message',
      { type: 'unsupported' },
      '[The customer sent a kind of message this chat cannot show]',
    ],
    ['a system notice as nothing', { type: 'system' }, undefined],
  ])('gives %s', (_, parts, line) => {
    expect(customerLine(message(parts))).toBe(line);
  });
});

describe('searchTextOf', () => {
  it('searches with the words: text, caption, transcript, a place’s name and address', () => {
    expect(searchTextOf(message({ text: 'hours?' }))).toBe('hours?');
    expect(searchTextOf(message({ type: 'image', content: media() }))).toBe('');
    expect(
      searchTextOf(message({ type: 'audio', content: media({ transcript: 'open on sunday' }) })),
    ).toBe('open on sunday');
    expect(
      searchTextOf(
        message({
          type: 'location',
          content: {
            kind: 'location',
            latitude: 1,
            longitude: 2,
            name: 'Philz',
            address: null,
            url: null,
          },
        }),
      ),
    ).toBe('Philz');
  });
});
