import { count, eq } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import {
  messagingEarlyStatuses,
  messagingWebhookEvents,
} from '../../src/modules/messaging/conversations/messaging-conversations.schema';
import { MessagingMessagesRepository } from '../../src/modules/messaging/conversations/messaging-messages.repository';
import {
  MESSAGING_SWEEP_GRACE_MS,
  MessagingSweeper,
} from '../../src/modules/messaging/conversations/messaging-sweeper';
import { JobName, JobQueue } from '../../src/queue';
import {
  ChatFake,
  GraphFake,
  messageSends,
  statusEvent,
  textMessageEvent,
  type GraphSentMessage,
} from '../fakes';
import { newWamid } from '../fakes/graph.webhooks';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  allEventsProcessed,
  answerFromKnowledge,
  conversationLog,
  conversationWith,
  deliverEvent,
  newCustomer,
  seedAgent,
  startMessagingApp,
  WELCOME,
  webhookEventCounts,
} from '../support/messaging-agent';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

const HOUR_MS = 3_600_000;

/** The driver's hand-off of a job (protected): failing it is Redis refusing the add. */
type SendJob = (name: JobName, payload: unknown, options: unknown) => Promise<void>;

describe.each([
  ['in-process queue', false],
  ['BullMQ', true],
])('messaging conversations recover lost work (%s)', (_driver, redis) => {
  let graph: GraphFake;
  let chat: ChatFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let number: Awaited<ReturnType<typeof seedAgent>>;

  beforeAll(async () => {
    graph = await GraphFake.start();
    chat = await ChatFake.start();
    answerFromKnowledge(chat);
    t = await startMessagingApp(chat, graph, redis, { MESSAGING_DELIVERY_RETENTION_HOURS: '2' });
    admin = await registerOrganization(t.http);
    number = await seedAgent(t, graph, admin);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t?.close();
    await chat?.stop();
    await graph?.close();
  });

  const sentTo = (customer: string): GraphSentMessage[] =>
    graph.sent.filter((message) => message.to === customer);
  const logOf = async (customer: string) =>
    conversationLog(t, admin.token, (await conversationWith(t, admin.token, customer))._id);
  /** The queue refuses `times` jobs named `name` (other jobs go through). */
  const refuseJobs = (name: JobName, times: number) => {
    const jobs: { send: SendJob } = t.app.get<unknown, { send: SendJob }>(JobQueue);
    const send = jobs.send.bind(jobs);
    let refused = 0;
    jest.spyOn(jobs, 'send').mockImplementation((job, payload, options) => {
      if (job === name && refused < times) {
        refused += 1;
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      }
      return send(job, payload, options);
    });
    return () => refused;
  };
  /** One sweep as if `aheadMs` had passed. */
  const sweepLater = (aheadMs: number) => {
    const later = new Date(Date.now() + aheadMs);
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(later);
    return t.app
      .get(MessagingSweeper)
      .run()
      .finally(() => clock.mockRestore());
  };
  const afterGrace = MESSAGING_SWEEP_GRACE_MS + 5_000;

  it('answers, once, a message whose reply job could not be queued', async () => {
    const customer = newCustomer();
    const refused = refuseJobs(JobName.ReplyToMessage, 1);
    const event = textMessageEvent(number.number, { from: customer, text: 'Zanzibar on Sunday?' });
    await deliverEvent(t, event.payload).expect(200);
    await allEventsProcessed(t);
    // The message is stored and its delivery processed; the queue refused the reply job.
    expect(refused()).toBe(1);
    expect(sentTo(customer)).toEqual([]);
    expect((await logOf(customer)).map((m) => m.direction)).toEqual(['inbound']);

    // Within the grace period the sweeper leaves it (its job may just be on its way).
    expect(await sweepLater(0)).toMatchObject({ replies: 0 });
    const report = await sweepLater(afterGrace);
    expect(report.replies).toBe(1);
    await waitFor(() => sentTo(customer).length === 2, {
      timeoutMs: 20_000,
      what: 'the welcome and the reply',
    });
    expect(sentTo(customer)[0].text).toBe(WELCOME);
    expect(sentTo(customer)[1].text).toContain('Zanzibar lounge opens at 7 am');

    // Swept again and delivered again: nothing more.
    await waitFor(async () => (await sweepLater(afterGrace)).replies === 0, {
      timeoutMs: 20_000,
      what: 'the message to be handled',
    });
    await deliverEvent(t, event.payload).expect(200);
    await allEventsProcessed(t);
    expect(await sweepLater(afterGrace)).toMatchObject({ replies: 0 });
    expect(sentTo(customer)).toHaveLength(2);
    expect((await logOf(customer)).map((m) => [m.direction, m.purpose, m.status])).toEqual([
      ['inbound', null, 'received'],
      ['outbound', 'welcome', 'sent'],
      ['outbound', 'reply', 'sent'],
    ]);
  });

  it('processes a stored delivery whose job could not be queued', async () => {
    const customer = newCustomer();
    refuseJobs(JobName.ProcessMessagingEvent, 1);
    const event = textMessageEvent(number.number, { from: customer, text: 'Zanzibar?' });
    // Not answered 200: the platform delivers again later. The row is stored all the same.
    await deliverEvent(t, event.payload).expect(500);
    const stored = await webhookEventCounts(t);
    expect(stored.all - stored.processed).toBe(1);

    const report = await sweepLater(afterGrace);
    expect(report.events).toBe(1);
    await waitFor(() => sentTo(customer).length === 2, {
      timeoutMs: 20_000,
      what: 'the welcome and the reply',
    });
    // The platform's redelivery is stored and processed, and answers nothing more.
    await deliverEvent(t, event.payload).expect(200);
    await allEventsProcessed(t);
    expect(await sweepLater(afterGrace)).toMatchObject({ events: 0 });
    expect(sentTo(customer)).toHaveLength(2);
  });

  it('sends again a reply whose retry job could not be queued', async () => {
    const customer = newCustomer();
    await deliverEvent(t, textMessageEvent(number.number, { from: customer, text: 'Hi' }).payload);
    await waitFor(() => sentTo(customer).length === 2, { timeoutMs: 20_000, what: 'answers' });

    refuseJobs(JobName.SendMessage, 1);
    graph.failNext(1, 503, messageSends(number.phoneNumberId));
    await deliverEvent(
      t,
      textMessageEvent(number.number, { from: customer, text: 'Zanzibar?' }).payload,
    );
    const pending = await waitFor(
      async () => {
        const reply = (await logOf(customer)).at(-1);
        return reply?.purpose === 'reply' && reply.error !== null && reply;
      },
      { timeoutMs: 20_000, what: 'the refused reply' },
    );
    expect(pending.status).toBe('pending');
    expect(sentTo(customer)).toHaveLength(2);

    expect(await sweepLater(afterGrace)).toMatchObject({ sends: 1 });
    await waitFor(() => sentTo(customer).length === 3, { timeoutMs: 20_000, what: 'the resend' });
    await waitFor(async () => (await logOf(customer)).at(-1)?.status === 'sent', {
      timeoutMs: 20_000,
      what: 'the reply to be sent',
    });
  });

  it('keeps a status that arrives before the send is recorded, and applies it after', async () => {
    const customer = newCustomer();
    const messages = t.app.get(MessagingMessagesRepository);
    const markSent = messages.markSent.bind(messages);
    let release!: () => void;
    const recorded = new Promise<void>((resolve) => (release = resolve));
    // The platform took the welcome; our UPDATE storing its wamid waits.
    jest.spyOn(messages, 'markSent').mockImplementationOnce(async (...args) => {
      await recorded;
      return markSent(...args);
    });
    await deliverEvent(t, textMessageEvent(number.number, { from: customer, text: 'Hi' }).payload);
    const welcome = await waitFor(() => sentTo(customer)[0], {
      timeoutMs: 20_000,
      what: 'the welcome to reach the platform',
    });
    for (const status of ['delivered', 'read'] as const) {
      await deliverEvent(
        t,
        statusEvent(number.number, { id: welcome.id, status, recipientId: customer }),
      ).expect(200);
    }
    await allEventsProcessed(t);
    release();
    const db = t.app.get(Database).db;
    const kept = () =>
      db
        .select({ n: count() })
        .from(messagingEarlyStatuses)
        .where(eq(messagingEarlyStatuses.platformMessageId, welcome.id));
    // Applied, then forgotten: two statements, so wait for both.
    await waitFor(
      async () =>
        (await logOf(customer)).find((m) => m.purpose === 'welcome')?.status === 'read' &&
        (await kept())[0].n === 0,
      { timeoutMs: 20_000, what: 'the early statuses to be applied and forgotten' },
    );
    // Still only up: a late 'delivered' changes nothing.
    await deliverEvent(
      t,
      statusEvent(number.number, { id: welcome.id, status: 'delivered', recipientId: customer }),
    ).expect(200);
    await allEventsProcessed(t);
    expect((await logOf(customer)).find((m) => m.purpose === 'welcome')?.status).toBe('read');
    expect((await kept())[0].n).toBe(0);
  });

  it('deletes processed deliveries and stray statuses past the retention', async () => {
    const stray = newWamid();
    await deliverEvent(
      t,
      statusEvent(number.number, { id: stray, status: 'delivered', recipientId: newCustomer() }),
    ).expect(200);
    await allEventsProcessed(t);
    const db = t.app.get(Database).db;
    const strays = async () =>
      (
        await db
          .select({ n: count() })
          .from(messagingEarlyStatuses)
          .where(eq(messagingEarlyStatuses.platformMessageId, stray))
      )[0].n;
    expect(await strays()).toBe(1);
    const before = await webhookEventCounts(t);
    expect(before.processed).toBeGreaterThan(0);

    // MESSAGING_DELIVERY_RETENTION_HOURS=2: an hour on, everything is kept.
    expect(await sweepLater(HOUR_MS)).toMatchObject({ pruned: 0 });
    expect(await webhookEventCounts(t)).toEqual(before);

    // An unprocessed delivery (its job lost for good) is kept for whoever looks into it.
    const [unprocessed] = await db
      .insert(messagingWebhookEvents)
      .values({ payload: { object: 'whatsapp_business_account', entry: [] } })
      .returning({ id: messagingWebhookEvents.id });
    await db
      .update(messagingWebhookEvents)
      .set({ receivedAt: new Date(Date.now() - 48 * HOUR_MS) })
      .where(eq(messagingWebhookEvents.id, unprocessed.id));

    const report = await sweepLater(3 * HOUR_MS);
    expect(report.pruned).toBe(before.processed + 1);
    expect(await webhookEventCounts(t)).toEqual({ all: 1, processed: 0 });
    expect(await strays()).toBe(0);
  });
});
