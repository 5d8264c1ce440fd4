import { and, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { agents } from '../../src/modules/agents/agents.schema';
import { batches } from '../../src/modules/batches/batches.schema';
import { CallingFactories } from '../support/calling-factories';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { knowledgeBaseApi } from '../support/knowledge-bases';
import { startTestApp, type TestApp } from '../support/test-app';

// Booting the app and signing up four users takes more than Jest's 5 s on a busy 2-core box.
jest.setTimeout(30_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const MISSING_ID = '65f1c0ffee0123456789abcd';

interface Agent {
  _id: string;
  agent_name: string;
  isDefault: boolean;
  [field: string]: unknown;
}

describe('voice agents', () => {
  let t: TestApp;
  let make: CallingFactories;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;
  let agentsMember: { token: string };
  let callsMember: { token: string };
  /** A knowledge base of admin's organization, and one of other's. */
  let KB_ID: string;
  let OTHER_KB_ID: string;

  beforeAll(async () => {
    t = await startTestApp();
    make = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
    agentsMember = await createMember(t.http, admin.token, ['agents']);
    callsMember = await createMember(t.http, admin.token, ['calls']);
    KB_ID = await createKnowledgeBase(admin.token, 'Renewal FAQ');
    OTHER_KB_ID = await createKnowledgeBase(other.token, 'Not yours');
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const createKnowledgeBase = async (token: string, name: string): Promise<string> =>
    (await knowledgeBaseApi(t.http, token).create({ knowledgeBaseName: name }).expect(201)).body
      .data._id as string;
  const create = (body: object, token = admin.token) =>
    t.http.post('/api/agents').set(bearer(token)).send(body);
  const created = async (body: object, token = admin.token): Promise<Agent> =>
    (await create(body, token).expect(201)).body.data as Agent;
  const patch = (id: string, body: object, token = admin.token) =>
    t.http.patch(`/api/agents/${id}`).set(bearer(token)).send(body);
  const remove = (id: string, token = admin.token) =>
    t.http.delete(`/api/agents/${id}`).set(bearer(token));
  const defaultsOf = async (organizationId: string) =>
    (
      await db()
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), eq(agents.isDefault, true)))
    ).map((row) => row.id);

  describe('POST /api/agents', () => {
    it('creates an agent with the defaults of every field the client left out', async () => {
      const org = await registerOrganization(t.http);
      const response = await create({ agent_name: 'Ada' }, org.token).expect(201);
      expect(response.body).toMatchObject({ message: 'Agent created', status: true, code: 201 });
      expect(response.body.data).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        agent_name: 'Ada',
        gender: null,
        voice: null,
        conversationType: 'single_prompt',
        prompt: '',
        greeting: null,
        language: 'en-US',
        knowledgeBaseIds: [],
        voicemailMessage: null,
        transferNumber: null,
        transferMode: 'cold',
        maxCallSeconds: 600,
        interruptible: true,
        privateDigits: false,
        firstSpeaker: 'agent',
        calleeFirstWaitMs: 2500,
        onIvr: 'navigate',
        onCallScreening: 'announce',
        analysisFields: [],
        isDefault: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('stores every field, normalising the language tag and the transfer number', async () => {
      const body = {
        agent_name: 'Renewals',
        gender: 'female',
        voice: 'alloy',
        conversationType: 'single_prompt',
        prompt: 'You offer the renewal.',
        greeting: 'Hello from Acme.',
        language: 'EN-gb',
        knowledgeBaseIds: [KB_ID],
        voicemailMessage: 'Please call us back.',
        transferNumber: '1 (415) 555-0100',
        transferMode: 'warm',
        maxCallSeconds: 900,
        interruptible: false,
        privateDigits: true,
        firstSpeaker: 'callee',
        calleeFirstWaitMs: 3000,
        onIvr: 'hang_up',
        onCallScreening: 'hang_up',
        analysisFields: [
          { name: 'booked', type: 'boolean', description: 'Appointment booked' },
          { name: 'slot', type: 'enum', description: 'Preferred slot', options: ['am', 'pm'] },
        ],
      };
      const agent = await created(body, agentsMember.token);
      expect(agent).toMatchObject({
        ...body,
        language: 'en-GB',
        transferNumber: '+14155550100',
      });
      const read = await t.http.get(`/api/agents/${agent._id}`).set(bearer(admin.token));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ message: 'Agent fetched', status: true, code: 200 });
      expect(read.body.data).toEqual(agent);
      const [row] = await db().select().from(agents).where(eq(agents.id, agent._id));
      expect(row).toMatchObject({
        organizationId: admin.organizationId,
        agentName: 'Renewals',
        language: 'en-GB',
        transferNumber: '+14155550100',
      });
    });

    it.each([
      ['no agent_name', { agent_name: undefined }, 'agent_name'],
      ['a blank agent_name', { agent_name: '   ' }, 'agent_name'],
      ['agent_name null', { agent_name: null }, 'agent_name'],
      ['an unknown conversationType', { conversationType: 'multi_prompt' }, 'conversationType'],
      ['a malformed language', { language: 'en_US' }, 'language'],
      ['a language that is no tag', { language: 'english!' }, 'language'],
      ['language null', { language: null }, 'language'],
      ['an invalid transferNumber', { transferNumber: '+1 555' }, 'transferNumber'],
      ['maxCallSeconds under 30', { maxCallSeconds: 29 }, 'maxCallSeconds'],
      ['maxCallSeconds over 7200', { maxCallSeconds: 7201 }, 'maxCallSeconds'],
      ['maxCallSeconds not an integer', { maxCallSeconds: 60.5 }, 'maxCallSeconds'],
      ['a prompt over 20,000 characters', { prompt: 'x'.repeat(20_001) }, 'prompt'],
      ['a greeting over 2,000 characters', { greeting: 'x'.repeat(2_001) }, 'greeting'],
      ['a malformed knowledge base id', { knowledgeBaseIds: ['kb-1'] }, 'knowledgeBaseIds'],
      [
        'repeated knowledge base ids',
        { knowledgeBaseIds: ['65f1c0ffee0123456789abce', '65f1c0ffee0123456789abce'] },
        'knowledgeBaseIds',
      ],
      ['interruptible as text', { interruptible: 'yes' }, 'interruptible'],
      ['privateDigits as text', { privateDigits: 'yes' }, 'privateDigits'],
      ['an unknown firstSpeaker', { firstSpeaker: 'robot' }, 'firstSpeaker'],
      ['an unknown onIvr', { onIvr: 'dance' }, 'onIvr'],
      ['an unknown transferMode', { transferMode: 'lukewarm' }, 'transferMode'],
      ['a null transferMode', { transferMode: null }, 'transferMode'],
      ['a null onCallScreening', { onCallScreening: null }, 'onCallScreening'],
      ['calleeFirstWaitMs under 500', { calleeFirstWaitMs: 499 }, 'calleeFirstWaitMs'],
      ['calleeFirstWaitMs over 4000', { calleeFirstWaitMs: 4001 }, 'calleeFirstWaitMs'],
      [
        'an enum analysis field without options',
        { analysisFields: [{ name: 'slot', type: 'enum', description: 'd' }] },
        'analysisFields.0.options',
      ],
      [
        'an enum analysis field with empty options',
        { analysisFields: [{ name: 'slot', type: 'enum', description: 'd', options: [] }] },
        'analysisFields.0.options',
      ],
      [
        'options on a string analysis field',
        { analysisFields: [{ name: 'n', type: 'string', description: 'd', options: ['a'] }] },
        'analysisFields.0.options',
      ],
      [
        'repeated analysis field names',
        {
          analysisFields: [
            { name: 'n', type: 'string', description: 'd' },
            { name: 'n', type: 'number', description: 'e' },
          ],
        },
        'analysisFields',
      ],
      [
        'an unknown analysis field type',
        { analysisFields: [{ name: 'n', type: 'date', description: 'd' }] },
        'analysisFields.0.type',
      ],
      ['an unknown field', { colour: 'blue' }, 'colour'],
    ])('answers 400 for %s and stores nothing', async (_case, overrides, field) => {
      const org = await registerOrganization(t.http);
      const response = await create({ agent_name: 'Bad', ...overrides }, org.token).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      const rows = await db()
        .select()
        .from(agents)
        .where(eq(agents.organizationId, org.organizationId));
      expect(rows).toHaveLength(0);
    });
  });

  describe('GET /api/agents', () => {
    it('answers the seed’s page shape, newest first, with pagination', async () => {
      const org = await registerOrganization(t.http);
      const ids: string[] = [];
      for (const name of ['First', 'Second', 'Third'])
        ids.push((await created({ agent_name: name }, org.token))._id);
      const page1 = await t.http.get('/api/agents?limit=2').set(bearer(org.token)).expect(200);
      expect(page1.body).toMatchObject({ message: 'Agents fetched', status: true, code: 200 });
      expect(Object.keys(page1.body.data).sort()).toEqual(
        ['docs', 'limit', 'page', 'totalDocs', 'totalPages'].sort(),
      );
      expect(page1.body.data).toMatchObject({ page: 1, limit: 2, totalPages: 2, totalDocs: 3 });
      expect(page1.body.data.docs.map((agent: Agent) => agent.agent_name)).toEqual([
        'Third',
        'Second',
      ]);
      const page2 = await t.http
        .get('/api/agents?page=2&limit=2')
        .set(bearer(org.token))
        .expect(200);
      expect(page2.body.data.docs.map((agent: Agent) => agent._id)).toEqual([ids[0]]);
      const defaults = await t.http.get('/api/agents').set(bearer(org.token)).expect(200);
      expect(defaults.body.data).toMatchObject({ page: 1, limit: 10, totalPages: 1, totalDocs: 3 });
    });

    it('searches names case-insensitively, taking % and _ literally', async () => {
      const org = await registerOrganization(t.http);
      for (const name of ['Renewals EN', 'renewals FR', 'Support', '100% sure', 'snake_case'])
        await created({ agent_name: name }, org.token);
      const names = async (search: string) =>
        (
          await t.http.get('/api/agents').query({ search }).set(bearer(org.token)).expect(200)
        ).body.data.docs
          .map((agent: Agent) => agent.agent_name)
          .sort();
      expect(await names('RENEWAL')).toEqual(['Renewals EN', 'renewals FR']);
      expect(await names('%')).toEqual(['100% sure']);
      expect(await names('_')).toEqual(['snake_case']);
      expect(await names('nobody')).toEqual([]);
      const none = await t.http.get('/api/agents?search=nobody').set(bearer(org.token)).expect(200);
      expect(none.body.data).toEqual({ docs: [], page: 1, limit: 10, totalPages: 0, totalDocs: 0 });
    });

    it('shows only the caller’s organization', async () => {
      const mine = await created({ agent_name: 'Mine only' });
      const theirs = await t.http.get('/api/agents?limit=100').set(bearer(other.token)).expect(200);
      expect(theirs.body.data.docs.map((agent: Agent) => agent._id)).not.toContain(mine._id);
    });

    it.each([
      ['page=0', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=abc', 'page'],
      [`search=${'x'.repeat(201)}`, 'search'],
      ['colour=blue', 'colour'],
    ])('answers 400 for %s', async (query, field) => {
      const response = await t.http
        .get(`/api/agents?${query}`)
        .set(bearer(admin.token))
        .expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });
  });

  describe('access', () => {
    const routes = (id: string) =>
      [
        ['get', '/api/agents'],
        ['post', '/api/agents'],
        ['get', `/api/agents/${id}`],
        ['patch', `/api/agents/${id}`],
        ['delete', `/api/agents/${id}`],
      ] as const;

    it('answers 401 without credentials and 403 to a member without the agents permission', async () => {
      const agent = await created({ agent_name: 'Guarded' });
      for (const [method, path] of routes(agent._id)) {
        await t.http[method](path).send({ agent_name: 'x' }).expect(401);
        const denied = await t.http[method](path)
          .set(bearer(callsMember.token))
          .send({ agent_name: 'x' });
        expect(denied.status).toBe(403);
      }
      const [row] = await db().select().from(agents).where(eq(agents.id, agent._id));
      expect(row.agentName).toBe('Guarded');
    });

    it('answers 404 for an unknown id or another organization’s agent, and 400 for a malformed id', async () => {
      const theirs = await created({ agent_name: 'Theirs' }, other.token);
      for (const id of [MISSING_ID, theirs._id]) {
        await t.http.get(`/api/agents/${id}`).set(bearer(admin.token)).expect(404);
        await patch(id, { agent_name: 'Taken' }).expect(404);
        await patch(id, { isDefault: true }).expect(404);
        await remove(id).expect(404);
      }
      const [row] = await db().select().from(agents).where(eq(agents.id, theirs._id));
      expect(row).toMatchObject({ agentName: 'Theirs', isDefault: true });
      for (const [method, path] of routes('not-an-id').slice(2)) {
        const response = await t.http[method](path).set(bearer(admin.token)).send({});
        expect(response.status).toBe(400);
      }
    });
  });

  describe('PATCH /api/agents/{id}', () => {
    it('changes only the fields sent; null clears nullable fields', async () => {
      const agent = await created({
        agent_name: 'Patchable',
        greeting: 'Hi',
        voice: 'alloy',
        transferNumber: '+14155550100',
        maxCallSeconds: 120,
      });
      const response = await patch(agent._id, {
        greeting: null,
        transferNumber: '14155550101',
        language: 'fr-fr',
      }).expect(200);
      expect(response.body).toMatchObject({ message: 'Agent updated', status: true, code: 200 });
      expect(response.body.data).toEqual({
        ...agent,
        greeting: null,
        transferNumber: '+14155550101',
        language: 'fr-FR',
        updatedAt: expect.any(String),
      });
      const empty = await patch(agent._id, {}).expect(200);
      expect(empty.body.data).toEqual(response.body.data);
    });

    it.each([
      ['agent_name', { agent_name: null }],
      ['prompt', { prompt: null }],
      ['language', { language: null }],
      ['maxCallSeconds', { maxCallSeconds: null }],
      ['interruptible', { interruptible: null }],
      ['analysisFields', { analysisFields: null }],
      ['knowledgeBaseIds', { knowledgeBaseIds: null }],
      ['conversationType', { conversationType: null }],
      ['isDefault', { isDefault: null }],
      ['transferNumber', { transferNumber: 'not a number' }],
    ])('answers 400 for null or invalid %s and changes nothing', async (field, body) => {
      const agent = await created({
        agent_name: 'Kept',
        prompt: 'Stay',
        transferNumber: '+14155550100',
      });
      const response = await patch(agent._id, body).expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      const read = await t.http
        .get(`/api/agents/${agent._id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(read.body.data).toEqual(agent);
    });
  });

  describe('knowledgeBaseIds', () => {
    const refused = (response: { body: unknown }, unknown: string) =>
      expect(response.body).toMatchObject({
        status: false,
        code: 400,
        errors: [{ field: 'knowledgeBaseIds', message: expect.stringContaining(unknown) }],
      });
    const agentsNamed = async (name: string) =>
      db()
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.organizationId, admin.organizationId), eq(agents.agentName, name)));

    it('creates an agent with knowledge bases of its organization', async () => {
      const second = await createKnowledgeBase(admin.token, 'Pricing');
      const agent = await created({ agent_name: 'Knows two', knowledgeBaseIds: [second, KB_ID] });
      expect(agent.knowledgeBaseIds).toEqual([second, KB_ID]);
    });

    it.each([
      ['an id that names no knowledge base', () => MISSING_ID],
      ["another organization's knowledge base", () => OTHER_KB_ID],
    ])('answers 400 on create for %s and stores nothing', async (_case, unknownId) => {
      const name = `Refused ${unknownId()}`;
      const response = await create({
        agent_name: name,
        knowledgeBaseIds: [KB_ID, unknownId()],
      }).expect(400);
      refused(response, unknownId());
      expect(response.body.errors[0].message).not.toContain(KB_ID);
      expect(await agentsNamed(name)).toEqual([]);
    });

    it.each([
      ['an id that names no knowledge base', () => MISSING_ID],
      ["another organization's knowledge base", () => OTHER_KB_ID],
    ])('answers 400 on update for %s and changes nothing', async (_case, unknownId) => {
      const agent = await created({ agent_name: 'Keeps its base', knowledgeBaseIds: [KB_ID] });
      const response = await patch(agent._id, {
        prompt: 'Changed?',
        knowledgeBaseIds: [unknownId()],
      }).expect(400);
      refused(response, unknownId());
      const read = await t.http
        .get(`/api/agents/${agent._id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(read.body.data).toEqual(agent);
    });

    it('updates an agent to knowledge bases of its organization, and to none', async () => {
      const agent = await created({ agent_name: 'Learns' });
      const updated = await patch(agent._id, { knowledgeBaseIds: [KB_ID] }).expect(200);
      expect(updated.body.data.knowledgeBaseIds).toEqual([KB_ID]);
      const cleared = await patch(agent._id, { knowledgeBaseIds: [] }).expect(200);
      expect(cleared.body.data.knowledgeBaseIds).toEqual([]);
    });

    it('drops a deleted knowledge base from the agent, whose later updates still pass', async () => {
      const base = await createKnowledgeBase(admin.token, 'Short-lived');
      const agent = await created({ agent_name: 'Outlives', knowledgeBaseIds: [base, KB_ID] });
      await t.http.delete(`/api/knowledgeBase/${base}`).set(bearer(admin.token)).expect(200);
      const read = await t.http
        .get(`/api/agents/${agent._id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(read.body.data.knowledgeBaseIds).toEqual([KB_ID]);
      const renamed = await patch(agent._id, { agent_name: 'Renamed' }).expect(200);
      expect(renamed.body.data.knowledgeBaseIds).toEqual([KB_ID]);
    });
  });

  describe('the default agent', () => {
    it('makes the first agent the default and later ones not, whatever they ask', async () => {
      const org = await registerOrganization(t.http);
      const first = await created({ agent_name: 'First', isDefault: false }, org.token);
      const second = await created({ agent_name: 'Second' }, org.token);
      expect(first.isDefault).toBe(true);
      expect(second.isDefault).toBe(false);
      expect(await defaultsOf(org.organizationId)).toEqual([first._id]);
    });

    it('makes exactly one of five concurrent first agents the default', async () => {
      // Several organizations, so that the race is lost somewhere if it can be.
      for (let round = 0; round < 4; round += 1) {
        const org = await registerOrganization(t.http);
        const responses = await Promise.all(
          [1, 2, 3, 4, 5].map((n) => create({ agent_name: `Racer ${n}` }, org.token)),
        );
        expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
        const winners = responses.filter((response) => response.body.data.isDefault);
        expect(winners).toHaveLength(1);
        expect(await defaultsOf(org.organizationId)).toEqual([winners[0].body.data._id]);
      }
    });

    it('moves the default with isDefault true on create or PATCH, in one step', async () => {
      const org = await registerOrganization(t.http);
      const first = await created({ agent_name: 'First' }, org.token);
      const second = await created({ agent_name: 'Second', isDefault: true }, org.token);
      expect(second.isDefault).toBe(true);
      expect(await defaultsOf(org.organizationId)).toEqual([second._id]);

      const moved = await patch(
        first._id,
        { isDefault: true, prompt: 'Now default' },
        org.token,
      ).expect(200);
      expect(moved.body.data).toMatchObject({ isDefault: true, prompt: 'Now default' });
      expect(await defaultsOf(org.organizationId)).toEqual([first._id]);
      // Again: nothing to move.
      await patch(first._id, { isDefault: true }, org.token).expect(200);
      expect(await defaultsOf(org.organizationId)).toEqual([first._id]);
      // false on an agent that is not the default changes nothing.
      const kept = await patch(second._id, { isDefault: false }, org.token).expect(200);
      expect(kept.body.data.isDefault).toBe(false);
    });

    it('keeps one default under concurrent moves', async () => {
      const org = await registerOrganization(t.http);
      const all: Agent[] = [];
      for (const n of [1, 2, 3, 4, 5])
        all.push(await created({ agent_name: `Agent ${n}` }, org.token));
      const responses = await Promise.all(
        all.map((agent) => patch(agent._id, { isDefault: true }, org.token)),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await defaultsOf(org.organizationId)).toHaveLength(1);
    });

    it('keeps one default when the default is deleted while agents are created', async () => {
      for (let round = 0; round < 3; round += 1) {
        const org = await registerOrganization(t.http);
        const first = await created({ agent_name: 'First' }, org.token);
        const [deleted, ...creates] = await Promise.all([
          remove(first._id, org.token),
          create({ agent_name: 'Second' }, org.token),
          create({ agent_name: 'Third' }, org.token),
        ]);
        expect([deleted.status, ...creates.map((response) => response.status)]).toEqual([
          200, 201, 201,
        ]);
        expect(await defaultsOf(org.organizationId)).toHaveLength(1);
      }
    });

    it('answers 409 to isDefault false on the default agent and changes nothing', async () => {
      const org = await registerOrganization(t.http);
      const only = await created({ agent_name: 'Only' }, org.token);
      const response = await patch(
        only._id,
        { isDefault: false, prompt: 'changed' },
        org.token,
      ).expect(409);
      expect(response.body).toMatchObject({ status: false, code: 409 });
      expect(response.body.errorMessage).toMatch(/make another agent the default/);
      const [row] = await db().select().from(agents).where(eq(agents.id, only._id));
      expect(row).toMatchObject({ isDefault: true, prompt: '' });
    });

    it('promotes the oldest remaining agent when the default is deleted', async () => {
      const org = await registerOrganization(t.http);
      const first = await created({ agent_name: 'First' }, org.token);
      const second = await created({ agent_name: 'Second' }, org.token);
      const third = await created({ agent_name: 'Third' }, org.token);
      const response = await remove(first._id, org.token).expect(200);
      expect(response.body).toEqual({ message: 'Agent deleted', status: true, code: 200 });
      expect(await defaultsOf(org.organizationId)).toEqual([second._id]);
      // A non-default goes without moving the default.
      await remove(third._id, org.token).expect(200);
      expect(await defaultsOf(org.organizationId)).toEqual([second._id]);
      await remove(second._id, org.token).expect(200);
      await remove(second._id, org.token).expect(404);
      expect(await defaultsOf(org.organizationId)).toEqual([]);
      // With none left, the next agent is the first again.
      const next = await created({ agent_name: 'Next' }, org.token);
      expect(next.isDefault).toBe(true);
    });
  });

  describe('createBatch with an agent', () => {
    const createBatch = (body: object, token = admin.token) =>
      t.http.post('/api/call/createBatch').set(bearer(token)).send(body);
    let phoneId: string;
    beforeAll(async () => {
      phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    });
    const batchRow = async (id: string) => {
      const [row] = await db().select().from(batches).where(eq(batches.id, id));
      return row;
    };
    const batchesNamed = (batchName: string) =>
      db()
        .select({ id: batches.id })
        .from(batches)
        .where(
          and(eq(batches.organizationId, admin.organizationId), eq(batches.batchName, batchName)),
        );

    it('stores agentId, maxConcurrentCalls and recordCalls, and shows agentId in the details', async () => {
      const agent = await created({ agent_name: 'Batch agent' });
      const response = await createBatch({
        batchName: 'With agent',
        callingNumbers: [phoneId],
        agentId: agent._id,
        maxConcurrentCalls: 3,
        recordCalls: true,
      }).expect(201);
      expect(await batchRow(response.body.data)).toMatchObject({
        agentId: agent._id,
        maxConcurrentCalls: 3,
        recordCalls: true,
      });
      const details = await t.http
        .get(`/api/call/batch-details/${response.body.data}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(details.body.data.agentId).toBe(agent._id);
    });

    it('defaults to the organization’s agent, the organization’s limit and no recording', async () => {
      const response = await createBatch({ batchName: 'Plain', callingNumbers: [phoneId] }).expect(
        201,
      );
      expect(await batchRow(response.body.data)).toMatchObject({
        agentId: null,
        maxConcurrentCalls: null,
        recordCalls: false,
      });
    });

    it('takes the three fields from a multipart form too', async () => {
      const agent = await created({ agent_name: 'Form agent' });
      const response = await t.http
        .post('/api/call/createBatch')
        .set(bearer(admin.token))
        .field('batchName', 'From a form')
        .field('callingNumbers', phoneId)
        .field('agentId', agent._id)
        .field('maxConcurrentCalls', '2')
        .field('recordCalls', 'true')
        .expect(201);
      expect(await batchRow(response.body.data)).toMatchObject({
        agentId: agent._id,
        maxConcurrentCalls: 2,
        recordCalls: true,
      });
      const unknown = await t.http
        .post('/api/call/createBatch')
        .set(bearer(admin.token))
        .field('batchName', 'Form unknown agent')
        .field('callingNumbers', phoneId)
        .field('agentId', MISSING_ID)
        .attach('file', Buffer.from('phoneNumber\n+14155550123\n'), 'contacts.csv')
        .expect(404);
      expect(unknown.body.errorMessage).toBe('Agent not found');
      expect(await batchesNamed('Form unknown agent')).toEqual([]);
    });

    it('answers 404 for an unknown agent or another organization’s, writing nothing', async () => {
      const theirs = await created({ agent_name: 'Not yours' }, other.token);
      for (const agentId of [MISSING_ID, theirs._id]) {
        const response = await createBatch({
          batchName: 'Wrong agent',
          callingNumbers: [phoneId],
          agentId,
          contacts: [{ phoneNumber: '+14155550123' }],
        }).expect(404);
        expect(response.body).toMatchObject({
          status: false,
          code: 404,
          errorMessage: 'Agent not found',
        });
      }
      expect(await batchesNamed('Wrong agent')).toEqual([]);
    });

    it.each([
      ['a malformed agentId', { agentId: 'agent-1' }, 'agentId'],
      ['maxConcurrentCalls 0', { maxConcurrentCalls: 0 }, 'maxConcurrentCalls'],
      ['maxConcurrentCalls not an integer', { maxConcurrentCalls: 1.5 }, 'maxConcurrentCalls'],
      ['recordCalls as text', { recordCalls: 'yes' }, 'recordCalls'],
    ])('answers 400 for %s', async (_case, overrides, field) => {
      const response = await createBatch({
        batchName: 'Invalid',
        callingNumbers: [phoneId],
        ...overrides,
      }).expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('falls back to the default when the batch’s agent is deleted', async () => {
      const agent = await created({ agent_name: 'Short-lived' });
      const response = await createBatch({
        batchName: 'Orphaned',
        callingNumbers: [phoneId],
        agentId: agent._id,
      }).expect(201);
      await remove(agent._id).expect(200);
      expect((await batchRow(response.body.data)).agentId).toBeNull();
    });
  });
});
