import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { phoneLogs, type PhoneLogTurn } from '../../src/modules/call-records/call-records.schema';
import { AttemptsRepository } from '../../src/modules/dialer/attempts.repository';
import { CallProgress } from '../../src/modules/dialer/call-progress';
import { ChatFake, type ChatReply } from '../fakes';
import { AttemptFactories } from '../support/attempt-factories';
import { CallingFactories } from '../support/calling-factories';
import { LogCapture } from '../support/log-capture';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { createWebhook } from '../support/webhook-factories';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const EVENTS = ['call.completed', 'call.summary.generated', 'call.analysis.completed'];
const SUMMARY = 'Zoé confirmed her appointment for Tuesday morning.';
const ANALYSIS_FIELDS = [
  { name: 'appointmentConfirmed', type: 'boolean' as const, description: 'Whether they confirmed' },
  {
    name: 'preferredTime',
    type: 'enum' as const,
    description: 'When they prefer to come',
    options: ['morning', 'afternoon'],
  },
  { name: 'visitors', type: 'number' as const, description: 'How many people will come' },
];

interface Delivered {
  type: string;
  data: Record<string, unknown> & { call_id: string; sequence: number };
}

describe('post-call summary and analysis (BullMQ, PostgreSQL, fake chat server)', () => {
  const logs = new LogCapture();
  let chat: ChatFake;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let calling: CallingFactories;
  let attempts: AttemptFactories;
  let agentId: string;
  let phone: { id: string; phoneNumber: string };
  /** What the fake model answers to each analysis request, in turn. */
  let analyses: Record<string, unknown>[];

  beforeAll(async () => {
    [chat, receiver] = await Promise.all([ChatFake.start(), WebhookReceiver.start()]);
    chat.respond = (request): ChatReply => {
      if (request.body.response_format === undefined) return { kind: 'text', pieces: [SUMMARY] };
      return { kind: 'text', pieces: [JSON.stringify(analyses.shift())] };
    };
    t = await startTestApp({
      redis: true,
      logStream: logs,
      env: {
        LOG_LEVEL: 'warn',
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'sk-post-call',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
    admin = await registerOrganization(t.http);
    calling = new CallingFactories(t);
    attempts = new AttemptFactories(t);
    await createWebhook(t, admin, { url: receiver.url('/events'), events: EVENTS });
    const agent = await attempts.agent(admin.organizationId, {
      prompt: 'Confirm the dentist appointment.',
      language: 'fr-FR',
      analysisFields: ANALYSIS_FIELDS,
    });
    agentId = agent.id;
    phone = (await calling.phone(admin.organizationId, admin.userId))!;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([chat?.stop(), receiver?.close()]);
  });

  const db = () => t.app.get(Database).db;
  const delivered = (callId: string): Delivered[] =>
    receiver
      .at('/events')
      .map((delivery) => JSON.parse(delivery.body) as Delivered)
      .filter((event) => event.data.call_id === callId);

  /** A call answered a minute ago with that conversation, ended by the provider's callback. */
  async function completedCall(texts: [PhoneLogTurn['role'], string][]) {
    const batch = await calling.batch(admin.organizationId, admin.userId, { agentId });
    const [record] = await calling.callRecords(batch, [{ name: 'Zoé' }]);
    const answeredAt = new Date(Date.now() - 60_000);
    const turns = texts.map(([role, text], index) => ({
      role,
      text,
      startedAt: new Date(answeredAt.getTime() + index * 5_000).toISOString(),
    }));
    const log = await attempts.claimed(record, phone, {
      agentId,
      callStatus: 'in-progress',
      placedAt: new Date(answeredAt.getTime() - 10_000),
      answeredAt,
      answeredBy: 'human',
      providerCallId: `CA${record.id}`,
      turns,
    });
    const database = t.app.get(Database);
    await database.transaction(async () => {
      const attempt = await t.app.get(AttemptsRepository).lock(log.id);
      await t.app.get(CallProgress).apply(attempt!, {
        integration: 'provider_two',
        callStatus: 'completed',
        providerStatus: 'completed',
        durationSeconds: 60,
      });
    });
    return { log, record: record, batch };
  }

  it('summarises and analyses a completed conversation: both events, stored on the phone log', async () => {
    analyses = [
      {
        successful: true,
        sentiment: 'positive',
        disposition: 'appointment_confirmed',
        optedOut: false,
        fields: { appointmentConfirmed: true, preferredTime: 'morning', visitors: 'two' },
      },
    ];
    const { log, batch } = await completedCall([
      ['agent', 'Bonjour, ici Ava du cabinet dentaire.'],
      ['callee', 'Oui, je confirme mardi matin.'],
    ]);
    const events = await waitFor(
      () => {
        const found = delivered(log.id);
        return found.length === 3 && found;
      },
      {
        timeoutMs: 20_000,
        what: 'call.completed, call.summary.generated, call.analysis.completed',
      },
    );
    const byType = Object.fromEntries(events.map((event) => [event.type, event.data]));
    expect(byType['call.summary.generated']).toMatchObject({
      summary: SUMMARY,
      transcript:
        'Agent: Bonjour, ici Ava du cabinet dentaire.\nCallee: Oui, je confirme mardi matin.',
      transcript_turns: [
        { role: 'agent', text: 'Bonjour, ici Ava du cabinet dentaire.', start_seconds: 0 },
        { role: 'callee', text: 'Oui, je confirme mardi matin.', start_seconds: 5 },
      ],
      language: 'fr-FR',
      batch_id: batch.id,
      agent_id: agentId,
    });
    expect(byType['call.analysis.completed']).toMatchObject({
      successful: true,
      sentiment: 'positive',
      disposition: 'appointment_confirmed',
      opted_out: false,
      // A value of the wrong type is dropped, never passed on.
      extracted_data: { appointmentConfirmed: true, preferredTime: 'morning', visitors: null },
    });
    expect(events.map((event) => event.data.sequence).sort()).toEqual([1, 2, 3]);

    const [stored] = await db().select().from(phoneLogs).where(eq(phoneLogs.id, log.id));
    expect(stored).toMatchObject({
      summary: SUMMARY,
      analysis: expect.objectContaining({ preferredTime: 'morning', optedOut: false }),
    });

    const analysisRequest = chat.requests.find((request) => request.body.response_format);
    expect(analysisRequest?.headers.authorization).toBe('Bearer sk-post-call');
    expect(analysisRequest?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        strict: true,
        schema: {
          properties: {
            fields: {
              required: ['appointmentConfirmed', 'preferredTime', 'visitors'],
              properties: { preferredTime: { enum: ['morning', 'afternoon', null] } },
            },
          },
        },
      },
    });

    const details = await t.http
      .get(`/api/call/batch-details/${batch.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    const records = (details.body as { data: { data: { phoneLogs: unknown[] }[] } }).data.data;
    expect(records[0]?.phoneLogs[0]).toMatchObject({
      summary: SUMMARY,
      turns: [{ role: 'agent' }, { role: 'callee' }],
      analysis: expect.objectContaining({ appointmentConfirmed: true }),
    });
  });

  it('puts a callee who opted out on the DNC list, after a model outage the queue retried', async () => {
    analyses = [
      {
        successful: false,
        sentiment: 'negative',
        disposition: 'do_not_call',
        optedOut: true,
        fields: { appointmentConfirmed: null, preferredTime: null, visitors: null },
      },
    ];
    chat.reply({ kind: 'error', status: 503 });
    const { log, record } = await completedCall([
      ['agent', 'Bonjour, ici Ava.'],
      ['callee', "Ne m'appelez plus jamais."],
    ]);
    await waitFor(
      () => delivered(log.id).some((event) => event.type === 'call.analysis.completed'),
      {
        timeoutMs: 20_000,
        what: 'call.analysis.completed after a retry',
      },
    );
    expect(
      delivered(log.id).find((event) => event.type === 'call.analysis.completed')?.data,
    ).toMatchObject({
      opted_out: true,
      extracted_data: { appointmentConfirmed: null, preferredTime: null, visitors: null },
    });
    const check = await t.http
      .get('/api/dnc/check')
      .query({ phoneNumber: record.phoneNumber })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect((check.body as { data: { onDncList: boolean } }).data.onDncList).toBe(true);
  });

  it('asks nothing of the model for a completed call without a conversation', async () => {
    const before = chat.requests.length;
    const { log } = await completedCall([]);
    await waitFor(() => delivered(log.id).some((event) => event.type === 'call.completed'), {
      what: 'call.completed',
    });
    const [stored] = await db().select().from(phoneLogs).where(eq(phoneLogs.id, log.id));
    expect(stored?.summary).toBeNull();
    expect(chat.requests.length).toBe(before);
  });

  it('gives up at once, without retries, when the model refuses the request itself', async () => {
    const before = chat.requests.length;
    chat.reply({ kind: 'error', status: 401, code: 'invalid_api_key' });
    const { log } = await completedCall([
      ['agent', 'Bonjour.'],
      ['callee', 'Bonjour.'],
    ]);
    const refusal = await waitFor(
      () =>
        logs.lines.find((line) => line.msg === 'Call not analysed' && line.phoneLogId === log.id),
      { timeoutMs: 20_000, what: 'the refusal logged' },
    );
    expect(String(refusal.reason)).toContain('HTTP 401');
    expect(logs.text).not.toContain('sk-post-call');
    expect(chat.requests.length).toBe(before + 1);
    const [stored] = await db().select().from(phoneLogs).where(eq(phoneLogs.id, log.id));
    expect(stored).toMatchObject({ summary: null, analysis: null });
  });
});
