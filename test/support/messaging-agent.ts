import { randomInt } from 'node:crypto';
import { count, isNotNull } from 'drizzle-orm';
import { toE164 } from '../../src/common/phone-number';
import { Database } from '../../src/database';
import { messagingWebhookEvents } from '../../src/modules/messaging/conversations/messaging-conversations.schema';
import { type ChatFake, type GraphFake, hubSignature, sampleTemplate } from '../fakes';
import type { RegisteredAdmin } from './factories';
import { knowledgeBaseApi } from './knowledge-bases';
import { connectBusinessNumber } from './messaging';
import { startTestApp, type TestApp } from './test-app';
import { waitFor } from './wait-for';

// A messaging agent answering customers in a booted app: the platform's fake, the chat model's
// fake, a connected number with its agent and knowledge base, signed deliveries.

export const APP_SECRET = 'messaging-app-secret';
export const VERIFY_TOKEN = 'verify-me-please';
export const PASSAGE = 'The Zanzibar lounge opens at 7 am on Sundays and serves mango tea.';
export const WELCOME = 'Hi! I am the Acme assistant.';

/** A customer's wa_id: the digits of a valid US mobile number, new each time. */
export function newCustomer(): string {
  for (;;) {
    const digits = `1415${randomInt(2_000_000, 9_999_999)}`;
    if (toE164(digits)) return digits;
  }
}

export async function startMessagingApp(
  chat: ChatFake | undefined,
  graph: GraphFake,
  redis: boolean,
  env: Record<string, string> = {},
) {
  return startTestApp({
    redis,
    env: {
      MESSAGING_API_URL: graph.baseUrl,
      MESSAGING_APP_SECRET: APP_SECRET,
      MESSAGING_VERIFY_TOKEN: VERIFY_TOKEN,
      MESSAGING_SEND_ATTEMPTS: '3',
      ...(chat ? { LLM_API_URL: chat.url } : {}),
      ...env,
    },
  });
}

/** An organization with a connected number whose agent has a welcome and a knowledge base. */
export async function seedAgent(t: TestApp, graph: GraphFake, admin: RegisteredAdmin) {
  const kb = knowledgeBaseApi(t.http, admin.token);
  const created = await kb
    .create({ knowledgeBaseName: 'Lounges' }, [
      ['lounges.txt', Buffer.from(`Opening hours\n\n${PASSAGE}\n`)],
    ])
    .expect(201);
  const knowledgeBaseId = created.body.data._id as string;
  await kb.settled(knowledgeBaseId);
  const connected = await connectBusinessNumber(t.http, graph, admin.token, [
    sampleTemplate({ name: 'we_miss_you' }),
    sampleTemplate({ name: 'not_yet', status: 'PENDING' }),
  ]);
  await t.http
    .post('/api/messaging/save-messaging-agent')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({
      agentName: 'Concierge',
      phoneNumberId: connected.phoneNumberId,
      systemPrompt: 'You answer questions about our lounges.',
      welcomeMessage: WELCOME,
      knowledgeBase: [knowledgeBaseId],
    })
    .expect(201);
  return connected;
}

/** The fake model answers with the knowledge passage it was given, if any. */
export function answerFromKnowledge(chat: ChatFake): void {
  chat.respond = (request) => {
    const messages = request.body.messages as { role: string; content: string }[];
    const system = messages[0]?.content ?? '';
    return {
      kind: 'text',
      pieces: system.includes('Zanzibar')
        ? ['Good question! ', 'The Zanzibar lounge opens at 7 am ', 'on Sundays.']
        : ['I do not know.'],
    };
  };
}

/** POSTs a delivery to the webhook, signed with APP_SECRET unless told otherwise. */
export function deliverEvent(t: TestApp, payload: unknown, signature?: string) {
  const body = JSON.stringify(payload);
  return t.http
    .post('/api/messaging/webhook')
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', signature ?? hubSignature(APP_SECRET, body))
    .send(body);
}

/** Stored deliveries, and how many of them were processed. */
export async function webhookEventCounts(t: TestApp) {
  const db = t.app.get(Database).db;
  const [all] = await db.select({ n: count() }).from(messagingWebhookEvents);
  const [done] = await db
    .select({ n: count() })
    .from(messagingWebhookEvents)
    .where(isNotNull(messagingWebhookEvents.processedAt));
  return { all: all.n, processed: done.n };
}

/** Waits until every stored delivery is processed. */
export function allEventsProcessed(t: TestApp) {
  return waitFor(
    async () => {
      const counts = await webhookEventCounts(t);
      return counts.all === counts.processed && counts;
    },
    { timeoutMs: 20_000, what: 'every delivery to be processed' },
  );
}

export interface ConversationDoc {
  _id: string;
  customerWaId: string;
  needsTemplate: boolean;
  windowOpen: boolean;
}

export interface MessageDoc {
  _id: string;
  direction: string;
  purpose: string | null;
  text: string | null;
  status: string;
  error: { code: string; message: string } | null;
  platformMessageId: string | null;
}

/** The organization's conversation with `customer` (GET /api/messaging/conversations). */
export async function conversationWith(
  t: TestApp,
  token: string,
  customer: string,
): Promise<ConversationDoc> {
  const response = await t.http
    .get('/api/messaging/conversations')
    .query({ limit: 100 })
    .set('Authorization', `Bearer ${token}`)
    .expect(200);
  const found = (response.body.data.docs as ConversationDoc[]).find(
    (doc) => doc.customerWaId === customer,
  );
  if (!found) throw new Error(`no conversation with ${customer}`);
  return found;
}

/** A conversation's log, oldest first. */
export async function conversationLog(
  t: TestApp,
  token: string,
  conversationId: string,
): Promise<MessageDoc[]> {
  const response = await t.http
    .get(`/api/messaging/conversations/${conversationId}/messages`)
    .set('Authorization', `Bearer ${token}`)
    .expect(200);
  return response.body.data as MessageDoc[];
}
