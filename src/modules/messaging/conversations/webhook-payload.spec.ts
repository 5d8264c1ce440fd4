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
          image: { caption: 'look' },
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
      from: '16505551234',
      customerName: 'Sheena',
      type: 'text',
      text: 'Hi',
      sentAt: new Date(1749416383 * 1000),
    });
    expect(messages[1]).toMatchObject({ type: 'image', text: 'look' });
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
  ])('skips %s without throwing', (_, payload) => {
    expect(parseDelivery(payload, NOW)).toEqual({ messages: [], statuses: [] });
  });
});
