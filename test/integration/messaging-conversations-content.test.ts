import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { Database } from '../../src/database';
import {
  messagingConversations,
  messagingMessages,
} from '../../src/modules/messaging/conversations/messaging-conversations.schema';
import { ChatFake, GraphFake, type ReceivedChatRequest } from '../fakes';
import { MEDIA_DOWNLOADS, mediaLookups } from '../fakes/graph.fake';
import { customerMessageEvent, type EventCustomer } from '../fakes/graph.webhooks';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  allEventsProcessed,
  answerFromKnowledge,
  conversationLog,
  deliverEvent,
  newCustomer,
  seedAgent,
  startMessagingApp,
  WELCOME,
} from '../support/messaging-agent';
import type { Response } from 'superagent';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** "what time do you open on sunday", spoken by eSpeak NG, as the app records voice notes. */
const VOICE_NOTE = readFileSync(join(__dirname, '../fixtures/messaging/voice-note.ogg'));
const QUESTION = 'When does the Zanzibar lounge open on Sunday?';
const FROM_KNOWLEDGE = 'The Zanzibar lounge opens at 7 am on Sundays.';

/** A business-scoped user id as the platform writes them: country, period, digits. */
const newUserId = () => `US.${randomInt(1e9, 1e10 - 1)}${randomInt(1e9, 1e10 - 1)}`;
/** A JPEG's first bytes, then noise: a photo as far as anyone downloading it can tell. */
const photoBytes = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2048)]);

type ChatLine = { role: string; content: string };
const lastCustomerLine = (request: ReceivedChatRequest) =>
  (request.body.messages as ChatLine[]).filter((line) => line.role === 'user').at(-1)?.content;

interface ConversationDoc {
  _id: string;
  customerWaId: string | null;
  customerUserId: string | null;
  customerUsername: string | null;
  windowOpen: boolean;
  needsTemplate: boolean;
}

interface MessageDoc {
  _id: string;
  direction: string;
  type: string;
  purpose: string | null;
  text: string | null;
  status: string;
  media: Record<string, unknown> | null;
  choice: Record<string, unknown> | null;
  location: Record<string, unknown> | null;
  contacts: Record<string, unknown>[] | null;
  reaction: Record<string, unknown> | null;
}

describe.each([
  ['in-process queue', false],
  ['BullMQ', true],
])('messaging: everything a customer sends is heard (%s)', (_driver, redis) => {
  let graph: GraphFake;
  let chat: ChatFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let number: Awaited<ReturnType<typeof seedAgent>>;

  beforeAll(async () => {
    graph = await GraphFake.start();
    chat = await ChatFake.start();
    answerFromKnowledge(chat);
    t = await startMessagingApp(chat, graph, redis);
    admin = await registerOrganization(t.http);
    number = await seedAgent(t, graph, admin);
  });
  afterAll(async () => {
    await t?.close();
    await chat?.stop();
    await graph?.close();
  });

  const db = () => t.app.get(Database).db;
  const send = async (
    customer: EventCustomer,
    type: string,
    fields: Record<string, unknown>,
    sentAt?: Date,
  ) => {
    const event = customerMessageEvent(number.number, customer, { type, fields, sentAt });
    await deliverEvent(t, event.payload).expect(200);
    return event.id;
  };
  const conversations = async (): Promise<ConversationDoc[]> =>
    (
      await t.http
        .get('/api/messaging/conversations')
        .query({ limit: 100 })
        .set(bearer(admin.token))
        .expect(200)
    ).body.data.docs as ConversationDoc[];
  /** The conversations holding either of the customer's ids. */
  const conversationsOf = async ({ phone, userId }: EventCustomer) =>
    (await conversations()).filter(
      (doc) =>
        (phone !== undefined && doc.customerWaId === phone) ||
        (userId !== undefined && doc.customerUserId === userId),
    );
  /** Every incoming message handled, every answer settled, the claim free: the conversation. */
  const settled = async (customer: EventCustomer): Promise<ConversationDoc> => {
    // The deliveries first: until its event is processed a message is not stored at all.
    await allEventsProcessed(t);
    const conversation = await waitFor(async () => (await conversationsOf(customer))[0], {
      timeoutMs: 20_000,
      what: 'the conversation',
    });
    await waitFor(
      async () => {
        const [open] = await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(messagingMessages)
          .where(
            and(
              eq(messagingMessages.conversationId, conversation._id),
              sql`((${messagingMessages.direction} = 'inbound' AND ${messagingMessages.handledAt} IS NULL) OR ${messagingMessages.status} = 'pending')`,
            ),
          );
        const [claim] = await db()
          .select({ worker: messagingConversations.replyWorkerId })
          .from(messagingConversations)
          .where(eq(messagingConversations.id, conversation._id));
        return open.n === 0 && claim.worker === null;
      },
      { timeoutMs: 30_000, what: 'the conversation to settle' },
    );
    return (await conversationsOf(customer))[0];
  };
  const logOf = async (conversationId: string) =>
    (await conversationLog(t, admin.token, conversationId)) as unknown as MessageDoc[];
  const repliesTo = (phone: string) =>
    graph.sent.filter((message) => message.to === phone && message.text !== WELCOME);
  const platformIdOf = (message: MessageDoc) =>
    (message as unknown as { platformMessageId: string | null }).platformMessageId;
  /** A fresh customer's first message, settled: welcome and reply sent. */
  const greeted = async (customer: EventCustomer, marker: string) => {
    await send(customer, 'text', { text: { body: marker } });
    return settled(customer);
  };
  /** The last model request whose conversation holds `marker` (unique to one customer). */
  const lastRequestMentioning = (marker: string) => chat.requestsMentioning(marker).at(-1);

  it('answers a tap on a template quick-reply button, the way back after 24 hours, with its payload', async () => {
    const phone = newCustomer();
    const marker = `Parcel ${phone}?`;
    const sentAt = new Date(Date.now() - 25 * 3600 * 1000);
    await send({ phone }, 'text', { text: { body: marker } }, sentAt);
    const closed = await settled({ phone });
    expect(closed).toMatchObject({ needsTemplate: true, windowOpen: false });
    expect(graph.sent.filter((m) => m.to === phone)).toEqual([]);

    const template = await t.http
      .post(`/api/messaging/conversations/${closed._id}/template`)
      .set(bearer(admin.token))
      .send({
        name: 'we_miss_you',
        language: 'en_US',
        variables: [
          { component: 'body', index: 1, value: 'Ana' },
          { component: 'body', index: 2, value: 'A-17' },
        ],
      })
      .expect(201);
    expect(template.body.data.status).toBe('sent');

    const tap = await send({ phone }, 'button', {
      button: { payload: 'ORDER_STATUS', text: 'Track my order' },
      context: {
        from: number.number.display_phone_number,
        id: template.body.data.platformMessageId,
      },
    });
    const open = await settled({ phone });
    expect(open).toMatchObject({ windowOpen: true, needsTemplate: false });
    expect(repliesTo(phone).map((m) => m.type)).toEqual(['template', 'text']);

    const request = lastRequestMentioning(marker);
    expect(request && lastCustomerLine(request)).toBe(
      '[Tapped "Track my order" (payload ORDER_STATUS)]',
    );
    const log = await logOf(open._id);
    expect(log.find((m) => platformIdOf(m) === tap)).toMatchObject({
      type: 'button',
      text: 'Track my order',
      choice: { via: 'template_button', title: 'Track my order', payload: 'ORDER_STATUS' },
    });
    expect(log.at(-1)).toMatchObject({ purpose: 'reply', status: 'sent' });
  });

  it('answers a row picked from an interactive list with its id', async () => {
    const phone = newCustomer();
    const marker = `Lounges for ${phone}?`;
    await greeted({ phone }, marker);
    const pick = await send({ phone }, 'interactive', {
      interactive: {
        type: 'list_reply',
        list_reply: { id: 'SUNDAY_HOURS', title: 'Sunday hours', description: 'When we open' },
      },
    });
    const conversation = await settled({ phone });
    expect(repliesTo(phone)).toHaveLength(2);
    const request = lastRequestMentioning(marker);
    expect(request && lastCustomerLine(request)).toBe(
      '[Chose "Sunday hours": When we open from a list (payload SUNDAY_HOURS)]',
    );
    const log = await logOf(conversation._id);
    expect(log.find((m) => platformIdOf(m) === pick)).toMatchObject({
      type: 'interactive',
      choice: {
        via: 'list',
        title: 'Sunday hours',
        payload: 'SUNDAY_HOURS',
        description: 'When we open',
      },
    });
  });

  it('answers a photo from its caption, and its media downloads through the API', async () => {
    const phone = newCustomer();
    const bytes = photoBytes();
    const media = graph.addMedia(number.number, { bytes, mimeType: 'image/jpeg' });
    const photo = await send({ phone }, 'image', {
      image: { id: media.id, mime_type: 'image/jpeg', sha256: media.sha256, caption: QUESTION },
    });
    const conversation = await settled({ phone });

    // Answered from the caption: the knowledge base's passage, found by it, is in the reply.
    expect(repliesTo(phone).map((m) => m.text)).toEqual([expect.stringContaining(FROM_KNOWLEDGE)]);
    const request = lastRequestMentioning(QUESTION);
    expect(request && lastCustomerLine(request)).toBe(`[The customer sent a photo] ${QUESTION}`);

    const log = await logOf(conversation._id);
    const stored = log.find((m) => platformIdOf(m) === photo);
    expect(stored).toMatchObject({
      type: 'image',
      text: QUESTION,
      media: {
        id: media.id,
        type: 'image',
        mimeType: 'image/jpeg',
        sha256: media.sha256,
        caption: QUESTION,
        filename: null,
        voice: false,
        downloadPath: `/api/messaging/conversations/${conversation._id}/messages/${stored?._id}/media`,
      },
    });
    const download = await t.http
      .get(String(stored?.media?.downloadPath))
      .set(bearer(admin.token))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);

    // Nobody else's, nothing but media, ids checked.
    const other = await registerOrganization(t.http);
    await t.http.get(String(stored?.media?.downloadPath)).set(bearer(other.token)).expect(404);
    const reply = log.find((m) => m.purpose === 'reply');
    const notMedia = await t.http
      .get(`/api/messaging/conversations/${conversation._id}/messages/${reply?._id}/media`)
      .set(bearer(admin.token))
      .expect(404);
    expect(notMedia.body).toMatchObject({ status: false, code: 404 });
    await t.http
      .get(`/api/messaging/conversations/${conversation._id}/messages/not-an-id/media`)
      .set(bearer(admin.token))
      .expect(400);
    await t.http.get(String(stored?.media?.downloadPath)).expect(401);
  });

  it('answers a photo without a caption, telling the model a photo came', async () => {
    const phone = newCustomer();
    const marker = `Look at this, ${phone}`;
    await greeted({ phone }, marker);
    const media = graph.addMedia(number.number, { bytes: photoBytes(), mimeType: 'image/jpeg' });
    await send({ phone }, 'image', {
      image: { id: media.id, mime_type: 'image/jpeg', sha256: media.sha256 },
    });
    await settled({ phone });
    expect(repliesTo(phone)).toHaveLength(2);
    const request = lastRequestMentioning(marker);
    expect(request && lastCustomerLine(request)).toBe('[The customer sent a photo]');
  });

  it('answers a media download the platform fails with a clear error: expired 410, down 502', async () => {
    const phone = newCustomer();
    const stored: { id: string; mediaId: string }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const media = graph.addMedia(number.number, { bytes: photoBytes(), mimeType: 'image/jpeg' });
      const wamid = await send({ phone }, 'image', {
        image: { id: media.id, mime_type: 'image/jpeg', sha256: media.sha256, caption: `#${i}` },
      });
      stored.push({ id: wamid, mediaId: media.id });
    }
    const conversation = await settled({ phone });
    const log = await logOf(conversation._id);
    const pathOf = (wamid: string) =>
      String(log.find((m) => platformIdOf(m) === wamid)?.media?.downloadPath);
    const download = (wamid: string) => t.http.get(pathOf(wamid)).set(bearer(admin.token));

    graph.expireMedia(stored[0].mediaId);
    const expired = await download(stored[0].id).expect(410);
    expect(expired.body).toMatchObject({ status: false, code: 410 });
    expect(JSON.stringify(expired.body)).toContain('no longer holds this media');

    // The lookup answers 500 to every try (three: it is a read, retried).
    graph.failNext(3, 500, mediaLookups(stored[1].mediaId));
    const down = await download(stored[1].id).expect(502);
    expect(down.body).toMatchObject({ status: false, code: 502 });
    expect(JSON.stringify(down.body)).toContain('Messaging platform unavailable');

    // The download itself answers 503.
    graph.failNext(1, 503, MEDIA_DOWNLOADS);
    await download(stored[2].id).expect(502);

    // A slow download is still served.
    const slow = graph.delayNext(1, 1_500, MEDIA_DOWNLOADS);
    const served = await download(stored[3].id).buffer(true).parse(binary).expect(200);
    expect(slow.answered).toBe(1);
    expect(Buffer.compare(served.body as Buffer, graph.media.get(stored[3].mediaId)!.bytes)).toBe(
      0,
    );
    // Nothing leaked: no token, no URL of the platform.
    for (const body of [expired.body, down.body]) {
      expect(JSON.stringify(body)).not.toContain(number.token);
      expect(JSON.stringify(body)).not.toContain('attachments');
    }
  });

  it('gives the model a location and a contact card summarised', async () => {
    const phone = newCustomer();
    const marker = `Where to, ${phone}?`;
    await greeted({ phone }, marker);
    const place = await send({ phone }, 'location', {
      location: {
        latitude: 37.483307,
        longitude: -122.148981,
        name: 'Philz Coffee',
        address: '101 Forest Ave, Palo Alto, CA 94301',
      },
    });
    await settled({ phone });
    expect(lastCustomerLine(lastRequestMentioning(marker)!)).toBe(
      '[The customer shared a location: Philz Coffee, 101 Forest Ave, Palo Alto, CA 94301, ' +
        '37.483307, -122.148981]',
    );

    const card = await send({ phone }, 'contacts', {
      contacts: [
        {
          name: { formatted_name: 'Ana Silva', first_name: 'Ana', last_name: 'Silva' },
          phones: [{ phone: '+1 (650) 555-0100', wa_id: '16505550100', type: 'CELL' }],
          emails: [{ email: 'ana@example.com', type: 'WORK' }],
        },
      ],
    });
    const conversation = await settled({ phone });
    expect(lastCustomerLine(lastRequestMentioning(marker)!)).toBe(
      '[The customer shared a contact card: Ana Silva (+1 (650) 555-0100, ana@example.com)]',
    );
    expect(repliesTo(phone)).toHaveLength(3);
    const log = await logOf(conversation._id);
    expect(log.find((m) => platformIdOf(m) === place)?.location).toEqual({
      latitude: 37.483307,
      longitude: -122.148981,
      name: 'Philz Coffee',
      address: '101 Forest Ave, Palo Alto, CA 94301',
      url: null,
    });
    expect(log.find((m) => platformIdOf(m) === card)?.contacts).toEqual([
      {
        name: 'Ana Silva',
        organization: null,
        phones: [{ phone: '+1 (650) 555-0100', waId: '16505550100', type: 'CELL' }],
        emails: ['ana@example.com'],
      },
    ]);
  });

  it('stores a reaction and does not answer it', async () => {
    const phone = newCustomer();
    const marker = `Thanks ${phone}`;
    const conversation = await greeted({ phone }, marker);
    const [reply] = repliesTo(phone);
    const requests = chat.requestsMentioning(marker).length;
    const reaction = await send({ phone }, 'reaction', {
      reaction: { message_id: reply.id, emoji: '👍' },
    });
    await settled({ phone });
    expect(repliesTo(phone)).toHaveLength(1);
    expect(chat.requestsMentioning(marker)).toHaveLength(requests);
    const log = await logOf(conversation._id);
    expect(log.find((m) => platformIdOf(m) === reaction)).toMatchObject({
      type: 'reaction',
      reaction: { emoji: '👍', messageId: reply.id },
    });
  });

  it('hears a voice note with the voice runtime’s speech-to-text', async () => {
    const phone = newCustomer();
    const media = graph.addMedia(number.number, {
      bytes: VOICE_NOTE,
      mimeType: 'audio/ogg; codecs=opus',
    });
    const note = await send({ phone }, 'audio', {
      audio: {
        id: media.id,
        mime_type: 'audio/ogg; codecs=opus',
        sha256: media.sha256,
        voice: true,
      },
    });
    const conversation = await settled({ phone });
    expect(repliesTo(phone)).toHaveLength(1);
    const log = await logOf(conversation._id);
    const heard = log.find((m) => platformIdOf(m) === note);
    expect(heard?.media).toMatchObject({
      id: media.id,
      type: 'audio',
      voice: true,
      transcription: 'done',
      transcript: expect.stringContaining('open on sunday'),
    });
    const transcript = String(heard?.media?.transcript);
    const request = chat.requestsMentioning(transcript).at(-1);
    expect(request && lastCustomerLine(request)).toBe(`[Voice note] ${transcript}`);
  });

  it('answers a voice note it cannot hear, saying so to the model', async () => {
    const phone = newCustomer();
    const marker = `Listen, ${phone}`;
    await greeted({ phone }, marker);
    const media = graph.addMedia(number.number, {
      bytes: randomBytes(4096),
      mimeType: 'audio/ogg; codecs=opus',
    });
    const note = await send({ phone }, 'audio', {
      audio: {
        id: media.id,
        mime_type: 'audio/ogg; codecs=opus',
        sha256: media.sha256,
        voice: true,
      },
    });
    const conversation = await settled({ phone });
    expect(repliesTo(phone)).toHaveLength(2);
    expect(lastCustomerLine(lastRequestMentioning(marker)!)).toBe(
      '[The customer sent a voice note (not transcribed)]',
    );
    const log = await logOf(conversation._id);
    expect(log.find((m) => platformIdOf(m) === note)?.media).toMatchObject({
      transcription: 'failed',
      transcript: null,
    });
  });

  it('answers a customer known only by their business-scoped user id, to that id', async () => {
    const userId = newUserId();
    const marker = `No number here ${userId}`;
    await send({ userId, username: 'sheena.n' }, 'text', { text: { body: marker } });
    const conversation = await settled({ userId });
    expect(conversation).toMatchObject({
      customerUserId: userId,
      customerWaId: null,
      customerUsername: 'sheena.n',
    });
    const sent = graph.sent.filter((m) => m.recipient === userId);
    expect(sent.map((m) => m.text)).toEqual([WELCOME, 'I do not know.']);
    expect(sent.every((m) => m.to === '')).toBe(true);
    const bodies = graph
      .sendRequests(number.phoneNumberId)
      .map((request) => request.body as Record<string, unknown>)
      .filter((body) => body.recipient === userId);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).not.toHaveProperty('to');
    expect(chat.requestsMentioning(marker)).toHaveLength(1);
  });

  it('keeps one conversation when a later message carries both ids', async () => {
    // Keyed on the number (a message from before user ids), then both ids, then the id alone.
    const phone = newCustomer();
    const userId = newUserId();
    await greeted({ phone }, `First ${phone}`);
    await send({ phone, userId }, 'text', { text: { body: `Second ${phone}` } });
    await settled({ phone });
    await send({ userId }, 'text', { text: { body: `Third ${phone}` } });
    await settled({ phone });
    const found = await conversationsOf({ phone, userId });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ customerWaId: phone, customerUserId: userId });
    // One welcome, three replies, all to the number (the platform prefers it).
    expect(graph.sent.filter((m) => m.to === phone).map((m) => m.text)).toEqual([
      WELCOME,
      'I do not know.',
      'I do not know.',
      'I do not know.',
    ]);
    expect(graph.sent.filter((m) => m.recipient === userId)).toEqual([]);
    expect(chat.requestsMentioning(`Third ${phone}`)[0].body.messages).toEqual(
      expect.arrayContaining([{ role: 'user', content: `First ${phone}` }]),
    );

    // Keyed on the user id, then both: the number joins the conversation.
    const later = { phone: newCustomer(), userId: newUserId() };
    await greeted({ userId: later.userId }, `Hello from ${later.userId}`);
    await send(later, 'text', { text: { body: `Again ${later.userId}` } });
    await settled(later);
    const joined = await conversationsOf(later);
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({ customerWaId: later.phone, customerUserId: later.userId });
    expect(graph.sent.filter((m) => m.recipient === later.userId).map((m) => m.text)).toEqual([
      WELCOME,
      'I do not know.',
    ]);
    expect(graph.sent.filter((m) => m.to === later.phone).map((m) => m.text)).toEqual([
      'I do not know.',
    ]);
  });
});

/** supertest: the body as bytes, whatever its type. */
function binary(response: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(null, Buffer.concat(chunks)));
}
