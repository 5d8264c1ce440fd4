import { parseDelivery } from './webhook-payload';

const NOW = new Date('2026-03-01T12:00:00Z');
const change = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'waba', changes: [{ field: 'messages', value }] }],
});
const metadata = { display_phone_number: '15550783881', phone_number_id: '106540352242922' };

describe('parseDelivery', () => {
  it('reads every message of every entry and change, with the sender’s profile name', () => {
    const value = {
      messaging_product: 'whatsapp',
      metadata,
      contacts: [{ profile: { name: 'Sheena' }, wa_id: '16505551234' }],
      messages: [
        {
          from: '16505551234',
          id: 'wamid.A',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'Hi' },
        },
        {
          from: '16505551234',
          id: 'wamid.B',
          timestamp: '1749416384',
          type: 'image',
          image: { id: 'media-1', caption: 'look' },
        },
      ],
    };
    const payload = change(value);
    (payload.entry as unknown[]).push({ id: 'waba', changes: [{ field: 'messages', value }] });
    const { messages } = parseDelivery(payload, NOW);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toEqual({
      phoneNumberId: '106540352242922',
      id: 'wamid.A',
      customer: { userId: undefined, waId: '16505551234', name: 'Sheena', username: undefined },
      type: 'text',
      text: 'Hi',
      content: undefined,
      sentAt: new Date(1749416383 * 1000),
    });
    expect(messages[1]).toMatchObject({ type: 'image', text: 'look' });
  });

  const one = (message: Record<string, unknown>, contacts?: unknown[]) => {
    const { messages } = parseDelivery(
      change({
        metadata,
        contacts: contacts ?? [{ profile: { name: 'Sheena' }, wa_id: '16505551234' }],
        messages: [{ from: '16505551234', id: 'wamid.M', timestamp: '1749416383', ...message }],
      }),
      NOW,
    );
    return messages[0];
  };

  it('reads a template quick-reply tap with its payload', () => {
    expect(
      one({ type: 'button', button: { payload: 'ORDER_STATUS', text: 'Track my order' } }),
    ).toMatchObject({
      type: 'button',
      text: 'Track my order',
      content: {
        kind: 'choice',
        via: 'template_button',
        title: 'Track my order',
        payload: 'ORDER_STATUS',
        description: null,
      },
    });
  });

  it('reads interactive reply buttons and list rows with their ids', () => {
    expect(
      one({
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'YES', title: 'Yes please' } },
      }),
    ).toMatchObject({
      text: 'Yes please',
      content: { kind: 'choice', via: 'reply_button', title: 'Yes please', payload: 'YES' },
    });
    expect(
      one({
        type: 'interactive',
        interactive: {
          type: 'list_reply',
          list_reply: { id: 'ROW_2', title: 'Sunday', description: '10:00 to 16:00' },
        },
      }),
    ).toMatchObject({
      text: 'Sunday',
      content: { kind: 'choice', via: 'list', payload: 'ROW_2', description: '10:00 to 16:00' },
    });
    // A flow's answer (nfm_reply) holds no title to read.
    expect(
      one({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: {} } }),
    ).toMatchObject({ text: undefined, content: undefined });
  });

  it.each<[string, Record<string, string | boolean>]>([
    ['image', { id: 'm1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'Is this it?' }],
    ['video', { id: 'm1', mime_type: 'video/mp4', sha256: 'abc' }],
    ['sticker', { id: 'm1', mime_type: 'image/webp', sha256: 'abc', animated: false }],
    ['document', { id: 'm1', mime_type: 'application/pdf', sha256: 'abc', filename: 'a.pdf' }],
    ['audio', { id: 'm1', mime_type: 'audio/ogg; codecs=opus', sha256: 'abc', voice: true }],
  ])('reads %s media with its id, type, mime type, sha256, caption and filename', (type, part) => {
    const parsed = one({ type, [type]: part });
    expect(parsed).toMatchObject({
      type,
      text: part.caption,
      content: {
        kind: 'media',
        mediaId: 'm1',
        mimeType: part.mime_type,
        sha256: 'abc',
        filename: part.filename ?? null,
        voice: part.voice === true,
      },
    });
  });

  it('keeps a media message without an id as its caption only', () => {
    expect(one({ type: 'image', image: { caption: 'hi' } })).toMatchObject({
      text: 'hi',
      content: undefined,
    });
  });

  it('reads a location, and drops impossible coordinates', () => {
    expect(
      one({
        type: 'location',
        location: { latitude: 37.48, longitude: -122.14, name: 'Philz', address: '1 Main St' },
      }).content,
    ).toEqual({
      kind: 'location',
      latitude: 37.48,
      longitude: -122.14,
      name: 'Philz',
      address: '1 Main St',
      url: null,
    });
    expect(
      one({ type: 'location', location: { latitude: 200, longitude: 0 } }).content,
    ).toBeUndefined();
  });

  it('reads contact cards: names, organizations, phones and e-mails', () => {
    const parsed = one({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Ana Silva', first_name: 'Ana' },
          org: { company: 'Acme' },
          phones: [{ phone: '+1 (650) 555-1234', wa_id: '16505551234', type: 'CELL' }],
          emails: [{ email: 'ana@example.com', type: 'WORK' }],
        },
        { name: { first_name: 'Bo', last_name: 'Li' }, phones: [{ wa_id: '16505550000' }] },
        { name: {}, phones: [] },
      ],
    });
    expect(parsed.content).toEqual({
      kind: 'contacts',
      contacts: [
        {
          name: 'Ana Silva',
          organization: 'Acme',
          phones: [{ phone: '+1 (650) 555-1234', waId: '16505551234', type: 'CELL' }],
          emails: ['ana@example.com'],
        },
        {
          name: 'Bo Li',
          organization: null,
          phones: [{ phone: '16505550000', waId: '16505550000', type: null }],
          emails: [],
        },
      ],
    });
  });

  it('reads a reaction, and its removal', () => {
    expect(
      one({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } }).content,
    ).toEqual({ kind: 'reaction', emoji: '👍', messageId: 'wamid.X' });
    expect(one({ type: 'reaction', reaction: { message_id: 'wamid.X' } }).content).toEqual({
      kind: 'reaction',
      emoji: null,
      messageId: 'wamid.X',
    });
  });

  describe('business-scoped user ids', () => {
    const parse = (message: Record<string, unknown>, contacts: unknown[]) =>
      parseDelivery(
        change({
          metadata,
          contacts,
          messages: [
            {
              id: 'wamid.U',
              timestamp: '1749416383',
              type: 'text',
              text: { body: 'Hi' },
              ...message,
            },
          ],
        }),
        NOW,
      ).messages;

    it('reads a message without `from`: the user id and username of its contact', () => {
      expect(
        parse({ from_user_id: 'US.13491208655302741918' }, [
          {
            profile: { name: 'Sheena', username: 'sheena.n' },
            user_id: 'US.13491208655302741918',
          },
        ]),
      ).toEqual([
        expect.objectContaining({
          customer: {
            userId: 'US.13491208655302741918',
            waId: undefined,
            name: 'Sheena',
            username: 'sheena.n',
          },
        }),
      ]);
    });

    it('takes the user id from the contact when the message names only the number', () => {
      const [message] = parse({ from: '16505551234' }, [
        { profile: { name: 'Sheena' }, wa_id: '16505551234', user_id: 'US.1349' },
      ]);
      expect(message.customer).toMatchObject({ userId: 'US.1349', waId: '16505551234' });
    });

    it('takes the only contact when the message names nobody, and skips one without any id', () => {
      const [message] = parse({}, [
        { profile: { name: 'Sheena' }, user_id: 'BR.1502576394655843' },
      ]);
      expect(message.customer).toMatchObject({ userId: 'BR.1502576394655843', waId: undefined });
      expect(parse({}, [{ profile: { name: 'Sheena' } }])).toEqual([]);
      expect(parse({}, [])).toEqual([]);
    });

    it('matches each message of a batch to its own contact', () => {
      const messages = parseDelivery(
        change({
          metadata,
          contacts: [
            { profile: { name: 'Ana' }, user_id: 'US.1' },
            { profile: { name: 'Bo' }, wa_id: '16505550000', user_id: 'US.2' },
          ],
          messages: [
            { id: 'wamid.1', from_user_id: 'US.1', type: 'text', text: { body: 'a' } },
            { id: 'wamid.2', from: '16505550000', type: 'text', text: { body: 'b' } },
          ],
        }),
        NOW,
      ).messages;
      expect(messages.map((m) => m.customer)).toEqual([
        { userId: 'US.1', waId: undefined, name: 'Ana', username: undefined },
        { userId: 'US.2', waId: '16505550000', name: 'Bo', username: undefined },
      ]);
    });
  });

  it('reads statuses with the first error of a failure', () => {
    const { statuses } = parseDelivery(
      change({
        metadata,
        statuses: [
          { id: 'wamid.X', status: 'delivered', timestamp: '1749416400', recipient_id: '1650' },
          {
            id: 'wamid.Y',
            status: 'failed',
            timestamp: 'not a time',
            recipient_id: '1650',
            errors: [{ code: 131026, title: 'Message undeliverable' }],
          },
          { id: 'wamid.Z', status: 'played', recipient_id: '1650' },
        ],
      }),
      NOW,
    );
    expect(statuses).toEqual([
      expect.objectContaining({ id: 'wamid.X', status: 'delivered', error: undefined }),
      expect.objectContaining({
        id: 'wamid.Y',
        status: 'failed',
        at: NOW,
        error: { code: 131026, message: 'Message undeliverable' },
      }),
    ]);
  });

  it.each([
    ['another object', { object: 'page', entry: [] }],
    ['no entries', { object: 'whatsapp_business_account' }],
    ['a string', 'hello'],
    [
      'entries that are not objects',
      { object: 'whatsapp_business_account', entry: [1, null, 'x'] },
    ],
    ['no phone number id', change({ messages: [{ id: 'a', from: '1', type: 'text' }] })],
    ['a message without id', change({ metadata, messages: [{ from: '1', type: 'text' }] })],
    [
      'a message without any customer id',
      change({ metadata, messages: [{ id: 'wamid.A', type: 'text', text: { body: 'Hi' } }] }),
    ],
  ])('skips %s without throwing', (_, payload) => {
    expect(parseDelivery(payload, NOW)).toEqual({ messages: [], statuses: [] });
  });
});
