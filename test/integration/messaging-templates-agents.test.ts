import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { messagingIntegrations } from '../../src/modules/messaging/messaging.schema';
import { GraphFake, sampleTemplate, type GraphBusinessAccount } from '../fakes';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { knowledgeBaseApi } from '../support/knowledge-bases';
import { connectBusinessNumber } from '../support/messaging';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const MISSING_ID = '65f1c0ffee0123456789abcd';

describe('messaging templates and agents', () => {
  let graph: GraphFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;

  beforeAll(async () => {
    graph = await GraphFake.start();
    t = await startTestApp({ env: { MESSAGING_API_URL: graph.baseUrl } });
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
  });

  const get = (path: string, token = admin.token) =>
    t.http.get(`/api/messaging/${path}`).set(bearer(token));
  const connected = (as: RegisteredAdmin, templates: Record<string, unknown>[] = []) =>
    connectBusinessNumber(t.http, graph, as.token, templates);
  const templateFetches = (account: GraphBusinessAccount) =>
    graph.requestsTo('GET', `/${account.id}/message_templates`).length;

  describe('templates', () => {
    let org: RegisteredAdmin;
    let big: Awaited<ReturnType<typeof connected>>;
    let small: Awaited<ReturnType<typeof connected>>;

    beforeAll(async () => {
      org = await registerOrganization(t.http);
      big = await connected(
        org,
        Array.from({ length: 130 }, (_, i) => sampleTemplate({ name: `bulk_${i}` })),
      );
      small = await connected(org, [sampleTemplate({ name: 'welcome', category: 'MARKETING' })]);
      await connected(other, [sampleTemplate({ name: 'not_yours' })]);
    });

    it('lists every template of every connected business account, following every page', async () => {
      const member = await createMember(t.http, org.token, ['messaging']);
      const response = await get('get-all-templates', member.token).expect(200);
      const names = response.body.data.map((template: { name: string }) => template.name);
      expect(names).toEqual([...Array.from({ length: 130 }, (_, i) => `bulk_${i}`), 'welcome']);
      expect(response.body.data[130]).toEqual({
        id: small.account.templates[0].id,
        name: 'welcome',
        language: 'en_US',
        category: 'MARKETING',
        status: 'APPROVED',
        parameterFormat: 'POSITIONAL',
        businessAccountId: small.account.id,
      });
      // 130 templates at 100 a page: two pages, the second reached through paging.next.
      expect(templateFetches(big.account)).toBe(2);
    });

    it('serves the cache until it is older than MESSAGING_TEMPLATE_CACHE_SECONDS', async () => {
      await get('get-all-templates', org.token).expect(200);
      const before = templateFetches(small.account);
      small.account.templates.push(sampleTemplate({ name: 'added_later' }));
      let names = (await get('get-all-templates', org.token).expect(200)).body.data.map(
        (template: { name: string }) => template.name,
      );
      expect(names).not.toContain('added_later');
      expect(templateFetches(small.account)).toBe(before);
      await t.app
        .get(Database)
        .db.update(messagingIntegrations)
        .set({ templatesSyncedAt: new Date(Date.now() - 901_000) })
        .where(eq(messagingIntegrations.phoneNumberId, small.phoneNumberId));
      names = (
        await get(`get-templates/${small.phoneNumberId}`, org.token).expect(200)
      ).body.data.map((template: { name: string }) => template.name);
      expect(names).toEqual(['welcome', 'added_later']);
    });

    it('serves the last synchronised copy while the platform is down', async () => {
      await get(`get-templates/${small.phoneNumberId}`, org.token).expect(200);
      await t.app
        .get(Database)
        .db.update(messagingIntegrations)
        .set({ templatesSyncedAt: new Date(0) })
        .where(eq(messagingIntegrations.phoneNumberId, small.phoneNumberId));
      graph.failNext(3, 500, { path: `/${small.account.id}/message_templates` });
      const response = await get(`get-templates/${small.phoneNumberId}`, org.token).expect(200);
      expect(response.body.data.length).toBeGreaterThan(0);
    });

    it('answers 502 for a number never synchronised while the platform is down', async () => {
      const fresh = await connected(org, [sampleTemplate()]);
      graph.failNext(3, 500, { path: `/${fresh.account.id}/message_templates` });
      await get(`get-templates/${fresh.phoneNumberId}`, org.token).expect(502);
      await get(`get-templates/${fresh.phoneNumberId}`, org.token).expect(200);
    });

    it('keeps each organization’s templates to itself', async () => {
      await get(`get-templates/${small.phoneNumberId}`, other.token).expect(404);
      const theirs = (await get('get-all-templates', other.token).expect(200)).body.data.map(
        (template: { name: string }) => template.name,
      );
      expect(theirs).toContain('not_yours');
      expect(theirs).not.toContain('welcome');
      await get('get-templates/not-digits', org.token).expect(400);
    });

    it('lists the variables of a template, named and positional, with their examples', async () => {
      const named = sampleTemplate({
        name: 'order_ready',
        parameter_format: 'NAMED',
        components: [
          {
            type: 'HEADER',
            format: 'TEXT',
            text: 'Hi {{first_name}}',
            example: { header_text_named_params: [{ param_name: 'first_name', example: 'Ana' }] },
          },
          {
            type: 'BODY',
            text: 'Order {{order_id}} is ready.',
            example: { body_text_named_params: [{ param_name: 'order_id', example: 'A-17' }] },
          },
          {
            type: 'BUTTONS',
            buttons: [
              {
                type: 'URL',
                text: 'Track',
                url: 'https://shop.example/t/{{1}}',
                example: ['https://shop.example/t/A-17'],
              },
            ],
          },
        ],
      });
      const { phoneNumberId } = await connected(org, [named]);
      const response = await get(
        `get-variable-by-template-id/${phoneNumberId}/${String(named.id)}`,
        org.token,
      ).expect(200);
      expect(response.body.data).toEqual({
        templateId: named.id,
        name: 'order_ready',
        language: 'en_US',
        parameterFormat: 'NAMED',
        variables: [
          { component: 'header', name: 'first_name', example: 'Ana' },
          { component: 'body', name: 'order_id', example: 'A-17' },
          { component: 'button', index: 1, buttonIndex: 0, example: 'https://shop.example/t/A-17' },
        ],
      });
      const positional = big.account.templates[0];
      const variables = await get(
        `get-variable-by-template-id/${big.phoneNumberId}/${String(positional.id)}`,
        org.token,
      ).expect(200);
      expect(variables.body.data.variables).toEqual([
        { component: 'body', index: 1, example: 'Ana' },
        { component: 'body', index: 2, example: 'A-17' },
      ]);
      await get(`get-variable-by-template-id/${phoneNumberId}/123456`, org.token).expect(404);
      await get(`get-variable-by-template-id/${phoneNumberId}/abc`, org.token).expect(400);
      await get(
        `get-variable-by-template-id/${phoneNumberId}/${String(named.id)}`,
        other.token,
      ).expect(404);
    });

    it('answers 403 without the messaging permission', async () => {
      const member = await createMember(t.http, org.token, ['agents']);
      await get('get-all-templates', member.token).expect(403);
    });
  });

  describe('messaging agents', () => {
    const save = (body: object, token = admin.token) =>
      t.http.post('/api/messaging/save-messaging-agent').set(bearer(token)).send(body);
    const agentBody = (phoneNumberId: string, extra: object = {}) => ({
      agentName: 'Support bot',
      phoneNumberId,
      systemPrompt: 'You answer questions about Acme orders.',
      ...extra,
    });
    const knowledgeBase = async (as: RegisteredAdmin): Promise<string> =>
      (
        await knowledgeBaseApi(t.http, as.token)
          .create({ knowledgeBaseName: 'FAQ', description: 'Orders' })
          .expect(201)
      ).body.data._id as string;

    it('creates, reads, updates and deletes the agent of a number', async () => {
      const { phoneNumberId } = await connected(admin);
      const kb = await knowledgeBase(admin);
      const created = await save(
        agentBody(phoneNumberId, {
          welcomeMessage: 'Hi! How can I help?',
          knowledgeBase: [kb],
          model: 'gpt-4o-mini',
          temperature: 0.3,
        }),
      ).expect(201);
      expect(created.body).toEqual({
        message: 'Messaging agent created',
        status: true,
        code: 201,
        data: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          agentName: 'Support bot',
          phoneNumberId,
          status: 'active',
          createdAt: expect.any(String),
        },
      });
      const id = created.body.data._id as string;
      const read = await get(`get-messaging-agent/${id}`).expect(200);
      expect(read.body.data).toEqual({
        ...created.body.data,
        systemPrompt: 'You answer questions about Acme orders.',
        welcomeMessage: 'Hi! How can I help?',
        knowledgeBase: [kb],
        model: 'gpt-4o-mini',
        temperature: 0.3,
        updatedAt: expect.any(String),
      });
      const updated = await t.http
        .put(`/api/messaging/update-messaging-agent/${id}`)
        .set(bearer(admin.token))
        .send({ agentName: 'Renamed', temperature: 1 })
        .expect(200);
      await t.http
        .put(`/api/messaging/update-messaging-agent/${id}`)
        .set(bearer(admin.token))
        .send({ systemPrompt: null })
        .expect(400);
      expect(updated.body.data).toMatchObject({
        agentName: 'Renamed',
        temperature: 1,
        systemPrompt: 'You answer questions about Acme orders.',
        knowledgeBase: [kb],
      });
      await t.http
        .delete(`/api/messaging/delete-messaging-agent/${id}`)
        .set(bearer(admin.token))
        .expect(200);
      await get(`get-messaging-agent/${id}`).expect(404);
      await t.http
        .delete(`/api/messaging/delete-messaging-agent/${id}`)
        .set(bearer(admin.token))
        .expect(404);
    });

    it('forgets a knowledge base once it is deleted', async () => {
      const { phoneNumberId } = await connected(admin);
      const [kept, dropped] = [await knowledgeBase(admin), await knowledgeBase(admin)];
      const id = (
        await save(agentBody(phoneNumberId, { knowledgeBase: [kept, dropped] })).expect(201)
      ).body.data._id as string;
      await t.http.delete(`/api/knowledgeBase/${dropped}`).set(bearer(admin.token)).expect(200);
      expect((await get(`get-messaging-agent/${id}`).expect(200)).body.data.knowledgeBase).toEqual([
        kept,
      ]);
    });

    it('answers 409 for a second agent on a number', async () => {
      const { phoneNumberId } = await connected(admin);
      await save(agentBody(phoneNumberId)).expect(201);
      const response = await save(agentBody(phoneNumberId, { agentName: 'Second' })).expect(409);
      expect(response.body.errorMessage).toMatch(/already exists/);
    });

    it('answers 404 for an unconnected number or a knowledge base of another organization', async () => {
      await save(agentBody('123456789')).expect(404);
      const { phoneNumberId } = await connected(admin);
      const theirs = await knowledgeBase(other);
      const response = await save(agentBody(phoneNumberId, { knowledgeBase: [theirs] })).expect(
        404,
      );
      expect(response.body.errorMessage).toMatch(/Knowledge base not found/);
      const theirNumber = await connected(other);
      await save(agentBody(theirNumber.phoneNumberId)).expect(404);
    });

    it.each([
      ['no systemPrompt', { systemPrompt: undefined }, 'systemPrompt'],
      ['a blank agentName', { agentName: ' ' }, 'agentName'],
      ['a temperature above 2', { temperature: 3 }, 'temperature'],
      ['a malformed knowledge base id', { knowledgeBase: ['kb-1'] }, 'knowledgeBase'],
    ])('answers 400 for %s', async (_case, extra, field) => {
      const response = await save(agentBody('106540352242922', extra)).expect(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('keeps agents to their organization; 400 for a malformed id', async () => {
      const { phoneNumberId } = await connected(admin);
      const id = (await save(agentBody(phoneNumberId)).expect(201)).body.data._id as string;
      await get(`get-messaging-agent/${id}`, other.token).expect(404);
      await t.http
        .put(`/api/messaging/update-messaging-agent/${id}`)
        .set(bearer(other.token))
        .send({ agentName: 'Hijacked' })
        .expect(404);
      await t.http
        .delete(`/api/messaging/delete-messaging-agent/${id}`)
        .set(bearer(other.token))
        .expect(404);
      await get(`get-messaging-agent/${MISSING_ID}`).expect(404);
      await get('get-messaging-agent/not-an-id').expect(400);
      const member = await createMember(t.http, admin.token, ['calls']);
      await get(`get-messaging-agent/${id}`, member.token).expect(403);
    });
  });
});
