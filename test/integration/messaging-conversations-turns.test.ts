import { setTimeout as pace } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import {
  messagingConversations,
  messagingMessages,
} from '../../src/modules/messaging/conversations/messaging-conversations.schema';
import { MessagingMessagesRepository } from '../../src/modules/messaging/conversations/messaging-messages.repository';
import {
  MESSAGING_SWEEP_GRACE_MS,
  MessagingSweeper,
} from '../../src/modules/messaging/conversations/messaging-sweeper';
import { READ_RECEIPT_TIMEOUT_MS } from '../../src/modules/messaging/conversations/typing-indicator';
import {
  ChatFake,
  type ChatReply,
  GraphFake,
  READ_RECEIPTS,
  textMessageEvent,
  type GraphSentMessage,
  type ReceivedChatRequest,
} from '../fakes';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  answerFromKnowledge,
  conversationLog,
  conversationWith,
  deliverEvent,
  newCustomer,
  seedAgent,
  startMessagingApp,
  WELCOME,
} from '../support/messaging-agent';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

/** The customer's typing pace in the finding: three messages 300 ms apart. */
const TYPING_PACE_MS = 300;
/** Two seconds of model time: replies written meanwhile would overlap it. */
const SLOW: ChatReply = {
  kind: 'text',
  pieces: ['Let me check ', 'your order ', 'right now.'],
  gapMs: 700,
};
const SLOW_TEXT = 'Let me check your order right now.';

type ChatLine = { role: string; content: string };
const linesOf = (request: ReceivedChatRequest) =>
  (request.body.messages as ChatLine[]).filter((line) => line.role !== 'system');
/** A fake's performance.now() stamp as epoch milliseconds (both fakes run in this process). */
const epochOf = (request: ReceivedChatRequest) => performance.timeOrigin + request.receivedAt;

describe.each([
  ['in-process queue', false],
  ['BullMQ', true],
])('messaging: one reply per customer turn (%s)', (_driver, redis) => {
  let graph: GraphFake;
  let chat: ChatFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let number: Awaited<ReturnType<typeof seedAgent>>;

  beforeAll(async () => {
    graph = await GraphFake.start();
    chat = await ChatFake.start();
    answerFromKnowledge(chat);
    // The default pause (1.5 s) is for people; a shared CI box can stretch 300 ms a little.
    t = await startMessagingApp(chat, graph, redis, { MESSAGING_REPLY_PAUSE_MS: '2000' });
    admin = await registerOrganization(t.http);
    number = await seedAgent(t, graph, admin);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t?.close();
    await chat?.stop();
    await graph?.close();
  });

  const db = () => t.app.get(Database).db;
  const say = (from: string, text: string) => {
    const event = textMessageEvent(number.number, { from, text });
    return deliverEvent(t, event.payload)
      .expect(200)
      .then(() => event.id);
  };
  const sentTo = (customer: string): GraphSentMessage[] =>
    graph.sent.filter((message) => message.to === customer);
  const repliesTo = (customer: string) => sentTo(customer).filter((m) => m.text !== WELCOME);
  const conversationOf = (customer: string) =>
    waitFor(() => conversationWith(t, admin.token, customer).catch(() => undefined), {
      timeoutMs: 20_000,
      what: 'the conversation',
    });
  /** Every incoming message handled, every answer settled and the conversation's claim free. */
  const settled = async (customer: string) => {
    const { _id } = await conversationOf(customer);
    return waitFor(
      async () => {
        const [open] = await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(messagingMessages)
          .where(
            and(
              eq(messagingMessages.conversationId, _id),
              sql`((${messagingMessages.direction} = 'inbound' AND ${messagingMessages.handledAt} IS NULL) OR ${messagingMessages.status} = 'pending')`,
            ),
          );
        const [claim] = await db()
          .select({ worker: messagingConversations.replyWorkerId })
          .from(messagingConversations)
          .where(eq(messagingConversations.id, _id));
        return open.n === 0 && claim.worker === null && _id;
      },
      { timeoutMs: 30_000, what: 'the conversation to settle' },
    );
  };
  /** Ids the reply workers marked handled, as often as they did. */
  const recordHandled = () => {
    const messages = t.app.get(MessagingMessagesRepository);
    const markHandled = messages.markHandled.bind(messages);
    const marked: string[] = [];
    jest.spyOn(messages, 'markHandled').mockImplementation((organizationId, ids, at) => {
      marked.push(...ids);
      return markHandled(organizationId, ids, at);
    });
    return marked;
  };
  const sendIndex = (message: GraphSentMessage) =>
    graph.requests.findIndex(
      (request) =>
        request.method === 'POST' &&
        request.path.endsWith('/messages') &&
        (request.body as { text?: { body?: string } } | undefined)?.text?.body === message.text &&
        (request.body as { to?: string } | undefined)?.to === message.to,
    );

  it('answers a burst of three messages 300 ms apart with one reply that saw all three', async () => {
    const customer = newCustomer();
    const order = `#${1000 + Math.floor(Math.random() * 9000)}`;
    const handled = recordHandled();
    const wamids = [await say(customer, 'Hi')];
    await pace(TYPING_PACE_MS);
    wamids.push(await say(customer, 'where is my order?'));
    await pace(TYPING_PACE_MS);
    wamids.push(await say(customer, order));
    const conversationId = await settled(customer);

    // The welcome, then exactly one reply.
    expect(sentTo(customer).map((m) => m.text)).toEqual([WELCOME, 'I do not know.']);
    const requests = chat.requestsMentioning(order);
    expect(requests).toHaveLength(1);
    // The welcome went just before: the model knows the customer was greeted.
    expect(linesOf(requests[0])).toEqual([
      { role: 'assistant', content: WELCOME },
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'where is my order?' },
      { role: 'user', content: order },
    ]);
    const log = await conversationLog(t, admin.token, conversationId);
    expect(log.map((m) => [m.direction, m.purpose, m.status])).toEqual([
      ['inbound', null, 'received'],
      ['inbound', null, 'received'],
      ['inbound', null, 'received'],
      ['outbound', 'welcome', 'sent'],
      ['outbound', 'reply', 'sent'],
    ]);
    // Each message handled exactly once.
    const inbound = log.filter((m) => m.direction === 'inbound').map((m) => m._id);
    expect(handled.filter((id) => inbound.includes(id)).sort()).toEqual([...inbound].sort());

    // Read (up to the latest wamid) and typing, once, before the reply went out.
    const receipts = graph.readReceipts.filter((r) => wamids.includes(r.messageId));
    expect(receipts).toEqual([
      expect.objectContaining({
        messageId: wamids[2],
        typing: true,
        phoneNumberId: number.phoneNumberId,
      }),
    ]);
    const receiptIndex = graph.requests.findIndex(
      (request) => (request.body as { message_id?: string } | undefined)?.message_id === wamids[2],
    );
    expect(receiptIndex).toBeGreaterThanOrEqual(0);
    expect(receiptIndex).toBeLessThan(sendIndex(repliesTo(customer)[0]));
  });

  it('answers a message sent while the model writes with a follow-up that saw it, never at once', async () => {
    const customer = newCustomer();
    const first = `Where is parcel ${customer}-A?`;
    const second = `Also, can I change the address of ${customer}-A?`;
    chat.replyTo(`${customer}-A?`, SLOW);
    await say(customer, first);
    await waitFor(() => chat.requestsMentioning(first).length === 1, {
      timeoutMs: 20_000,
      what: 'the model to start on the first message',
    });
    await say(customer, second);
    await settled(customer);

    expect(sentTo(customer).map((m) => m.text)).toEqual([WELCOME, SLOW_TEXT, 'I do not know.']);
    const [writing, followUp] = chat.requestsMentioning(first);
    expect(chat.requestsMentioning(first)).toHaveLength(2);
    expect(linesOf(writing)).toEqual([
      { role: 'assistant', content: WELCOME },
      { role: 'user', content: first },
    ]);
    // The follow-up's request holds the first reply (it started once that reply was sent), then
    // the message it answers.
    expect(linesOf(followUp)).toEqual([
      { role: 'user', content: first },
      { role: 'assistant', content: WELCOME },
      { role: 'assistant', content: SLOW_TEXT },
      { role: 'user', content: second },
    ]);
  });

  it('answers two conversations side by side, each with one reply per burst', async () => {
    const [ana, ben] = [newCustomer(), newCustomer()];
    for (const customer of [ana, ben]) chat.replyTo(`order of ${customer}`, SLOW);
    await Promise.all([say(ana, 'Hello'), say(ben, 'Hello')]);
    await pace(TYPING_PACE_MS);
    await Promise.all([say(ana, `order of ${ana}`), say(ben, `order of ${ben}`)]);
    await Promise.all([settled(ana), settled(ben)]);

    const [forAna, forBen] = [ana, ben].map((customer) => {
      expect(repliesTo(customer).map((m) => m.text)).toEqual([SLOW_TEXT]);
      const requests = chat.requestsMentioning(`order of ${customer}`);
      expect(requests).toHaveLength(1);
      expect(linesOf(requests[0])).toEqual([
        { role: 'assistant', content: WELCOME },
        { role: 'user', content: 'Hello' },
        { role: 'user', content: `order of ${customer}` },
      ]);
      const sentAt = graph.requests[sendIndex(repliesTo(customer)[0])].receivedAt.getTime();
      return { startedAt: epochOf(requests[0]), sentAt };
    });
    // Each model request began before the other conversation's reply was done: in parallel.
    expect(forBen.startedAt).toBeLessThan(forAna.sentAt);
    expect(forAna.startedAt).toBeLessThan(forBen.sentAt);
  });

  it.each([
    ['answers 503', () => graph.failNext(1, 503, READ_RECEIPTS)],
    ['answers 429', () => graph.rateLimitNext(1, 30, READ_RECEIPTS)],
    ['never answers', () => graph.stallNext(1, READ_RECEIPTS)],
  ])('replies when the read receipt %s', async (_fault, fault) => {
    const customer = newCustomer();
    const question = `Is ${customer} on the list?`;
    fault();
    const wamid = await say(customer, question);
    await settled(customer);

    expect(sentTo(customer).map((m) => m.text)).toEqual([WELCOME, 'I do not know.']);
    // Tried once, not retried, and the job did not fail (one model request, reply sent).
    const tried = graph.requests.filter(
      (request) => (request.body as { message_id?: string } | undefined)?.message_id === wamid,
    );
    expect(tried).toHaveLength(1);
    expect(graph.readReceipts.filter((r) => r.messageId === wamid)).toEqual([]);
    expect(chat.requestsMentioning(question)).toHaveLength(1);
    const log = await conversationLog(t, admin.token, (await conversationOf(customer))._id);
    expect(log.at(-1)).toMatchObject({ purpose: 'reply', status: 'sent', error: null });
    // Held up at most by the receipt's bound.
    const sentAt = graph.requests[sendIndex(repliesTo(customer)[0])].receivedAt.getTime();
    expect(sentAt - tried[0].receivedAt.getTime()).toBeLessThan(READ_RECEIPT_TIMEOUT_MS + 1_500);
  });

  it('frees a conversation whose worker died mid-reply once its claim expires', async () => {
    const customer = newCustomer();
    await say(customer, 'Hello');
    const conversationId = await settled(customer);
    // A worker took the conversation, renewed its claim one last time, and died.
    await db()
      .update(messagingConversations)
      .set({
        replyWorkerId: 'a-worker-that-died',
        replyWorkerUntil: sql`now() + interval '3 seconds'`,
      })
      .where(eq(messagingConversations.id, conversationId));
    await say(customer, 'Anyone there?');
    // The message's job found the conversation claimed, asked its worker and ended.
    await waitFor(
      async () => {
        const [row] = await db()
          .select({ requested: messagingConversations.replyRequested })
          .from(messagingConversations)
          .where(eq(messagingConversations.id, conversationId));
        return row.requested;
      },
      { timeoutMs: 20_000, what: 'the claimed conversation to be asked' },
    );
    expect(repliesTo(customer)).toHaveLength(1);

    await waitFor(
      async () => {
        const [row] = await db()
          .select({ expired: sql<boolean>`${messagingConversations.replyWorkerUntil} < now()` })
          .from(messagingConversations)
          .where(eq(messagingConversations.id, conversationId));
        return row.expired;
      },
      { timeoutMs: 20_000, what: 'the dead worker’s claim to expire' },
    );
    const later = new Date(Date.now() + MESSAGING_SWEEP_GRACE_MS + 5_000);
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(later);
    const report = await t.app
      .get(MessagingSweeper)
      .run()
      .finally(() => clock.mockRestore());
    expect(report.replies).toBeGreaterThanOrEqual(1);
    await settled(customer);
    expect(repliesTo(customer)).toHaveLength(2);
    const log = await conversationLog(t, admin.token, conversationId);
    expect(log.at(-1)).toMatchObject({ purpose: 'reply', status: 'sent' });
  });
});
