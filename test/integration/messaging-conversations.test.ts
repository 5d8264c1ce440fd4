import {
  ChatFake,
  GraphFake,
  hubSignature,
  messageSends,
  statusEvent,
  textMessageEvent,
  type GraphSentMessage,
} from '../fakes';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  allEventsProcessed,
  answerFromKnowledge,
  APP_SECRET,
  conversationLog,
  conversationWith,
  type ConversationDoc,
  deliverEvent,
  type MessageDoc,
  newCustomer,
  PASSAGE,
  seedAgent,
  startMessagingApp,
  VERIFY_TOKEN,
  WELCOME,
  webhookEventCounts,
} from '../support/messaging-agent';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

const MISSING_ID = '65f1c0ffee0123456789abcd';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

type Conversation = ConversationDoc;
type Message = MessageDoc;

describe.each([
  ['in-process queue', false],
  ['BullMQ', true],
])('messaging conversations (%s)', (_driver, redis) => {
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

  const deliver = (payload: unknown, signature?: string) => deliverEvent(t, payload, signature);
  const sentTo = (customer: string): GraphSentMessage[] =>
    graph.sent.filter((message) => message.to === customer);
  const eventCounts = () => webhookEventCounts(t);
  const allProcessed = () => allEventsProcessed(t);
  const conversationOf = (customer: string, as = admin.token) => conversationWith(t, as, customer);
  const messagesOf = (conversationId: string) => conversationLog(t, admin.token, conversationId);
  /** A conversation whose welcome and first reply were sent. */
  const openConversation = async (customer: string) => {
    await deliver(
      textMessageEvent(number.number, { from: customer, text: 'Hello' }).payload,
    ).expect(200);
    await waitFor(() => sentTo(customer).length === 2, {
      timeoutMs: 20_000,
      what: 'the welcome and the reply',
    });
    return conversationOf(customer);
  };

  describe('verify handshake', () => {
    const verify = (query: Record<string, string>) =>
      t.http.get('/api/messaging/webhook').query(query);

    it('echoes the challenge as plain text for our verify token', async () => {
      const response = await verify({
        'hub.mode': 'subscribe',
        'hub.verify_token': VERIFY_TOKEN,
        'hub.challenge': '1158201444',
      }).expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe('1158201444');
    });

    it.each([
      [{ 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' }],
      [{ 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' }],
      [{ 'hub.challenge': '1' }],
    ])('answers 403 to %j', async (query) => {
      const response = await verify(query).expect(403);
      expect(response.body).toMatchObject({ status: false, code: 403 });
    });

    it('answers 400 to a malformed challenge', async () => {
      await verify({
        'hub.mode': 'subscribe',
        'hub.verify_token': VERIFY_TOKEN,
        'hub.challenge': '<script>',
      }).expect(400);
    });
  });

  describe('signed deliveries', () => {
    it('refuses a missing or wrong signature with 401 and stores nothing', async () => {
      const customer = newCustomer();
      const { payload } = textMessageEvent(number.number, { from: customer, text: 'Hi' });
      const before = await eventCounts();
      const body = JSON.stringify(payload);
      const missing = await t.http
        .post('/api/messaging/webhook')
        .set('content-type', 'application/json')
        .send(body)
        .expect(401);
      expect(missing.body).toMatchObject({ status: false, code: 401 });
      await deliver(payload, hubSignature('another-secret', body)).expect(401);
      await deliver(payload, 'sha256=zz').expect(401);
      // Signed, then one byte changed.
      await t.http
        .post('/api/messaging/webhook')
        .set('content-type', 'application/json')
        .set('x-hub-signature-256', hubSignature(APP_SECRET, body))
        .send(body.replace('Hi', 'Ho'))
        .expect(401);
      expect(await eventCounts()).toEqual(before);
      expect(sentTo(customer)).toEqual([]);
    });

    it('answers 400 to a body that is not a JSON object', async () => {
      await deliver([1, 2]).expect(400);
      await t.http
        .post('/api/messaging/webhook')
        .set('content-type', 'application/json')
        .set('x-hub-signature-256', hubSignature(APP_SECRET, '{"object":'))
        .send('{"object":')
        .expect(400);
    });

    it('ignores events for numbers nobody connected (200, nothing sent)', async () => {
      const sent = graph.sent.length;
      await deliver(
        textMessageEvent({ id: '999999999999' }, { from: newCustomer(), text: 'Hi' }).payload,
      ).expect(200);
      await allProcessed();
      expect(graph.sent.length).toBe(sent);
    });
  });

  describe('the agent answers', () => {
    it('welcomes a new customer, then answers with the knowledge-base passage, once', async () => {
      const customer = newCustomer();
      const requestsBefore = chat.requests.length;
      const response = await deliver(
        textMessageEvent(number.number, {
          from: customer,
          text: 'When does the Zanzibar lounge open on Sunday?',
        }).payload,
      ).expect(200);
      expect(response.body).toEqual({ message: 'Event received', status: true, code: 200 });
      await waitFor(() => sentTo(customer).length === 2, {
        timeoutMs: 20_000,
        what: 'the welcome and the reply',
      });
      const [welcome, reply] = sentTo(customer);
      expect(welcome).toMatchObject({ type: 'text', text: WELCOME });
      expect(reply).toMatchObject({ type: 'text' });
      expect(reply.text).toContain('The Zanzibar lounge opens at 7 am on Sundays.');
      // The model saw the agent's prompt, the passage and the customer's question.
      const request = chat.requests[requestsBefore].body as {
        stream: boolean;
        messages: { role: string; content: string }[];
      };
      expect(request.stream).toBe(true);
      expect(request.messages[0].content).toContain('You answer questions about our lounges.');
      expect(request.messages[0].content).toContain(PASSAGE);
      expect(request.messages.at(-1)).toEqual({
        role: 'user',
        content: 'When does the Zanzibar lounge open on Sunday?',
      });

      await allProcessed();
      const conversation = await conversationOf(customer);
      expect(conversation).toMatchObject({
        phoneNumberId: number.phoneNumberId,
        customerName: 'Sheena Nelson',
        windowOpen: true,
        needsTemplate: false,
      });
      const log = await messagesOf(conversation._id);
      expect(log.map((m) => [m.direction, m.purpose, m.status])).toEqual([
        ['inbound', null, 'received'],
        ['outbound', 'welcome', 'sent'],
        ['outbound', 'reply', 'sent'],
      ]);
      expect(log[2].platformMessageId).toBe(reply.id);
      expect(sentTo(customer)).toHaveLength(2);
    });

    it('answers a delivery repeated one after another, and concurrently, once', async () => {
      const customer = newCustomer();
      const first = textMessageEvent(number.number, { from: customer, text: 'Zanzibar?' });
      await Promise.all([1, 2, 3].map(() => deliver(first.payload).expect(200)));
      await deliver(first.payload).expect(200);
      await waitFor(() => sentTo(customer).length >= 2, { timeoutMs: 20_000, what: 'answers' });
      await allProcessed();
      // The reply job of a second stored copy would have been queued by now; none was.
      const conversation = await conversationOf(customer);
      await waitFor(
        async () => (await messagesOf(conversation._id)).every((m) => m.status !== 'pending'),
        { timeoutMs: 20_000, what: 'no message pending' },
      );
      expect(sentTo(customer)).toHaveLength(2);
      expect(await messagesOf(conversation._id)).toHaveLength(3);

      // A later message of the same customer gets a reply and no second welcome.
      await deliver(textMessageEvent(number.number, { from: customer, text: 'Thanks' }).payload);
      await waitFor(() => sentTo(customer).length === 3, { timeoutMs: 20_000, what: 'a reply' });
      await allProcessed();
      expect(sentTo(customer).filter((m) => m.text === WELCOME)).toHaveLength(1);
    });

    it('stores statuses, only moving up, and failed 131026 marks the number undeliverable', async () => {
      const customer = newCustomer();
      const conversation = await openConversation(customer);
      const [welcome, reply] = sentTo(customer);
      const status = (id: string, state: 'delivered' | 'read' | 'failed', code?: number) =>
        deliver(
          statusEvent(number.number, {
            id,
            status: state,
            recipientId: customer,
            ...(code ? { error: { code, title: 'Message undeliverable' } } : {}),
          }),
        ).expect(200);
      await status(welcome.id, 'read');
      await status(welcome.id, 'delivered');
      await status(reply.id, 'delivered');
      await allProcessed();
      let log = await messagesOf(conversation._id);
      expect(log.find((m) => m.purpose === 'welcome')?.status).toBe('read');
      expect(log.find((m) => m.purpose === 'reply')?.status).toBe('delivered');

      const validate = () =>
        t.http
          .post('/api/messaging/validate-messaging-number')
          .set(bearer(admin.token))
          .send({ phoneNumber: `+${customer}` })
          .expect(200);
      expect((await validate()).body.data.isValid).toBe(true);
      await status(reply.id, 'failed', 131026);
      await allProcessed();
      log = await messagesOf(conversation._id);
      expect(log.find((m) => m.purpose === 'reply')).toMatchObject({
        status: 'failed',
        error: { code: '131026', message: 'Message undeliverable' },
      });
      expect((await validate()).body.data).toEqual({ phoneNumber: `+${customer}`, isValid: false });
    });

    it('retries a send the platform could not take, then stores the final status', async () => {
      const customer = newCustomer();
      const conversation = await openConversation(customer);
      const sends = () => graph.sendRequests(number.phoneNumberId).length;

      let before = sends();
      graph.failNext(2, 500, messageSends(number.phoneNumberId));
      await deliver(textMessageEvent(number.number, { from: customer, text: 'Again?' }).payload);
      await waitFor(() => sentTo(customer).length === 3, { timeoutMs: 20_000, what: 'a retry' });
      expect(sends() - before).toBe(3);
      let log = await messagesOf(conversation._id);
      expect(log.at(-1)).toMatchObject({ purpose: 'reply', status: 'sent', error: null });

      before = sends();
      graph.failNext(3, 503, messageSends(number.phoneNumberId));
      await deliver(textMessageEvent(number.number, { from: customer, text: 'Still?' }).payload);
      await waitFor(
        async () => (await messagesOf(conversation._id)).at(-1)?.status === 'failed' && true,
        { timeoutMs: 20_000, what: 'the reply to fail for good' },
      );
      // MESSAGING_SEND_ATTEMPTS=3: the first try and two queued retries.
      expect(sends() - before).toBe(3);
      log = await messagesOf(conversation._id);
      expect(log.at(-1)?.error?.code).toBe('1');
      expect(sentTo(customer)).toHaveLength(3);
    });

    it('stores a permanent refusal at once: 131047 flags the conversation for a template', async () => {
      const customer = newCustomer();
      graph.refusedRecipients.set(customer, 131047);
      const sends = () => graph.sendRequests(number.phoneNumberId).length;
      const before = sends();
      await deliver(textMessageEvent(number.number, { from: customer, text: 'Hi' }).payload);
      await allProcessed();
      const conversation = await waitFor(
        async () => {
          const found = await conversationOf(customer).catch(() => undefined);
          return found?.needsTemplate && found;
        },
        { timeoutMs: 20_000, what: 'the conversation to need a template' },
      );
      await waitFor(
        async () =>
          (await messagesOf(conversation._id)).filter((m) => m.status === 'failed').length === 2,
        { timeoutMs: 20_000, what: 'both answers to fail' },
      );
      expect(sends() - before).toBe(2);
      graph.refusedRecipients.delete(customer);
    });
  });

  describe('24-hour window and templates', () => {
    it('sends no free text outside the window, flags it, and a template re-opens it', async () => {
      const customer = newCustomer();
      const sentAt = new Date(Date.now() - 25 * 3600 * 1000);
      await deliver(
        textMessageEvent(number.number, { from: customer, text: 'Zanzibar?', sentAt }).payload,
      ).expect(200);
      const conversation = await waitFor(
        async () => {
          const found = await conversationOf(customer).catch(() => undefined);
          return found?.needsTemplate && found;
        },
        { timeoutMs: 20_000, what: 'the conversation to need a template' },
      );
      expect(conversation.windowOpen).toBe(false);
      await waitFor(
        async () => (await messagesOf(conversation._id)).every((m) => m.status !== 'pending'),
        { timeoutMs: 20_000, what: 'no message pending' },
      );
      const log = await messagesOf(conversation._id);
      expect(
        log.filter((m) => m.direction === 'outbound').map((m) => [m.status, m.error?.code]),
      ).toEqual([
        ['not_sent', 'outside_window'],
        ['not_sent', 'outside_window'],
      ]);
      expect(sentTo(customer)).toEqual([]);

      const send = (body: Record<string, unknown>, id = conversation._id, as = admin.token) =>
        t.http.post(`/api/messaging/conversations/${id}/template`).set(bearer(as)).send(body);
      const variables = [
        { component: 'body', index: 1, value: 'Ana' },
        { component: 'body', index: 2, value: 'A-17' },
      ];
      const missing = await send({ name: 'we_miss_you', language: 'en_US', variables: [] }).expect(
        400,
      );
      expect(missing.body.errorMessage).toContain('missing body:1, body:2');
      await send({ name: 'no_such', language: 'en_US', variables }).expect(404);
      await send({ name: 'not_yet', language: 'en_US', variables }).expect(409);
      await send({ name: 'BAD NAME', language: 'en_US' }).expect(400);
      await send({ name: 'we_miss_you', language: 'en_US', variables }, 'not-an-id').expect(400);
      await send({ name: 'we_miss_you', language: 'en_US', variables }, MISSING_ID).expect(404);
      const other = await registerOrganization(t.http);
      await send(
        { name: 'we_miss_you', language: 'en_US', variables },
        undefined,
        other.token,
      ).expect(404);
      expect(sentTo(customer)).toEqual([]);

      const body = { name: 'we_miss_you', language: 'en_US', variables };
      const sent = await send(body).set('Idempotency-Key', `template-${customer}`).expect(201);
      // A double POST (a client's retry) answers the first send and sends nothing more.
      const again = await send(body).set('Idempotency-Key', `template-${customer}`).expect(201);
      expect(again.body.data).toEqual(sent.body.data);
      const changed = await send({ ...body, variables: variables.slice().reverse() })
        .set('Idempotency-Key', `template-${customer}`)
        .expect(422);
      expect(changed.body).toMatchObject({ status: false, code: 422 });
      expect(sent.body.data).toMatchObject({
        direction: 'outbound',
        type: 'template',
        purpose: 'template',
        text: 'Hi Ana, your order A-17 shipped.',
        status: 'sent',
        error: null,
      });
      expect(sentTo(customer)).toEqual([
        expect.objectContaining({
          type: 'template',
          template: {
            name: 'we_miss_you',
            language: { code: 'en_US', policy: 'deterministic' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'Ana' },
                  { type: 'text', text: 'A-17' },
                ],
              },
            ],
          },
        }),
      ]);
      expect(await conversationOf(customer)).toMatchObject({ needsTemplate: false });

      // The customer answers: the window opens and the agent replies again.
      await deliver(textMessageEvent(number.number, { from: customer, text: 'Zanzibar?' }).payload);
      await waitFor(() => sentTo(customer).length === 2, { timeoutMs: 20_000, what: 'a reply' });
      expect(sentTo(customer)[1].text).toContain('Zanzibar lounge');
      expect(await conversationOf(customer)).toMatchObject({ windowOpen: true });
    });
  });

  describe('reading conversations', () => {
    it('pages the organization’s conversations and keeps them to it', async () => {
      const page = await t.http
        .get('/api/messaging/conversations')
        .query({ page: 1, limit: 2 })
        .set(bearer(admin.token))
        .expect(200);
      expect(page.body.data).toMatchObject({ page: 1, limit: 2 });
      expect(page.body.data.docs).toHaveLength(2);
      expect(page.body.data.totalDocs).toBeGreaterThanOrEqual(2);
      expect(page.body.data.totalPages).toBe(Math.ceil(page.body.data.totalDocs / 2));
      await t.http
        .get('/api/messaging/conversations')
        .query({ limit: 0 })
        .set(bearer(admin.token))
        .expect(400);
      await t.http.get('/api/messaging/conversations').expect(401);

      const other = await registerOrganization(t.http);
      const theirs = await t.http
        .get('/api/messaging/conversations')
        .set(bearer(other.token))
        .expect(200);
      expect(theirs.body.data).toEqual({
        docs: [],
        page: 1,
        limit: 10,
        totalPages: 0,
        totalDocs: 0,
      });
      const mine = page.body.data.docs[0] as Conversation;
      await t.http
        .get(`/api/messaging/conversations/${mine._id}/messages`)
        .set(bearer(other.token))
        .expect(404);
      await t.http
        .get('/api/messaging/conversations/not-an-id/messages')
        .set(bearer(admin.token))
        .expect(400);
    });
  });
});

describe('messaging conversations without a model', () => {
  let graph: GraphFake;
  let t: TestApp;

  beforeAll(async () => {
    graph = await GraphFake.start();
    t = await startMessagingApp(undefined, graph, false);
  });
  afterAll(async () => {
    await t?.close();
    await graph?.close();
  });

  it('sends the welcome, then logs a clear error instead of a reply', async () => {
    const admin = await registerOrganization(t.http);
    const number = await seedAgent(t, graph, admin);
    const customer = newCustomer();
    const { payload } = textMessageEvent(number.number, { from: customer, text: 'Zanzibar?' });
    const body = JSON.stringify(payload);
    await t.http
      .post('/api/messaging/webhook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', hubSignature(APP_SECRET, body))
      .send(body)
      .expect(200);
    const log = await waitFor(
      async () => {
        const list = await t.http
          .get('/api/messaging/conversations')
          .set(bearer(admin.token))
          .expect(200);
        const conversation = list.body.data.docs[0] as Conversation | undefined;
        if (!conversation) return undefined;
        const messages = (
          await t.http
            .get(`/api/messaging/conversations/${conversation._id}/messages`)
            .set(bearer(admin.token))
            .expect(200)
        ).body.data as Message[];
        return messages.some((m) => m.purpose === 'reply') && messages;
      },
      { timeoutMs: 20_000, what: 'the reply entry' },
    );
    expect(log.find((m) => m.purpose === 'welcome')?.status).toBe('sent');
    expect(log.find((m) => m.purpose === 'reply')).toMatchObject({
      status: 'not_sent',
      text: null,
      error: { code: 'llm_not_configured', message: expect.stringContaining('LLM_API_URL') },
    });
    expect(graph.sent.filter((m) => m.to === customer).map((m) => m.text)).toEqual([WELCOME]);
  });
});
