import { randomBytes } from 'node:crypto';
import type { WebhookDnsResolver } from '../../src/modules/webhooks/ssrf';
import { CallingFactories } from '../support/calling-factories';
import { createApiKey, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

// The one rule of every DELETE route (ApiDeleteErrors): 400 for a malformed id; 404 in the error
// envelope for an unknown id, another organization's, or one already deleted; the success body
// is each route's own contract.

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const UNKNOWN_ID = '65f1c0ffee0123456789abcd';
const publicDns: WebhookDnsResolver = () =>
  Promise.resolve([{ address: '93.184.216.34', family: 4 }]);

interface DeleteRoute {
  name: string;
  path: (id: string) => string;
  /** A new resource of the owner's organization; returns its id. */
  create: (owner: RegisteredAdmin) => Promise<string>;
  /** Whether the owner still sees it. */
  visible: (owner: RegisteredAdmin, id: string) => Promise<boolean>;
  success: (id: string) => object;
  notFound: string;
}

describe('DELETE routes: one rule', () => {
  let t: TestApp;
  let calls: CallingFactories;
  let owner: RegisteredAdmin;
  let stranger: RegisteredAdmin;

  beforeAll(async () => {
    t = await startTestApp({ webhookDnsResolver: publicDns });
    calls = new CallingFactories(t);
    owner = await registerOrganization(t.http);
    stranger = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
  });

  const ids = async (path: string, admin: RegisteredAdmin, pick = (data: unknown) => data) =>
    (
      (pick((await t.http.get(path).set(bearer(admin.token)).expect(200)).body.data) ?? []) as {
        _id: string;
      }[]
    ).map((item) => item._id);

  const routes: DeleteRoute[] = [
    {
      name: 'DELETE /api/api-keys/{id} (revoked, kept for the record)',
      path: (id) => `/api/api-keys/${id}`,
      create: async (admin) => (await createApiKey(t.http, admin.token)).id,
      visible: async (admin, id) => (await ids('/api/api-keys', admin)).includes(id),
      success: () => ({ message: 'API key revoked', status: true, code: 200 }),
      notFound: 'API key not found',
    },
    {
      name: 'DELETE /api/dnc/{id}',
      path: (id) => `/api/dnc/${id}`,
      create: async (admin) => {
        const batch = await calls.batch(admin.organizationId, admin.userId);
        const [record] = await calls.callRecords(batch, [{}]);
        const log = await calls.phoneLog(record);
        await t.http
          .post('/api/dnc/add')
          .set(bearer(admin.token))
          .send({
            phoneNumber: record.phoneNumber,
            batchId: batch.id,
            requestUUID: log.requestUuid,
          })
          .expect(200);
        const check = await t.http
          .get('/api/dnc/check')
          .query({ phoneNumber: record.phoneNumber })
          .set(bearer(admin.token))
          .expect(200);
        return check.body.data.entryId as string;
      },
      visible: async (admin, id) =>
        (
          await ids('/api/dnc?limit=100', admin, (data) => (data as { entries: unknown }).entries)
        ).includes(id),
      success: () => ({
        message: 'Number removed from the do-not-call list',
        status: true,
        code: 200,
        errorMessage: '',
      }),
      notFound: 'DNC entry not found',
    },
    {
      name: 'DELETE /api/webhooks/{id}',
      path: (id) => `/api/webhooks/${id}`,
      create: async (admin) =>
        (
          await t.http
            .post('/api/webhooks')
            .set(bearer(admin.token))
            .send({
              name: 'CRM',
              url: `https://hooks.example.com/${randomBytes(4).toString('hex')}`,
              events: ['call.completed'],
            })
            .expect(201)
        ).body.data._id as string,
      visible: async (admin, id) =>
        (
          await ids(
            '/api/webhooks?limit=100',
            admin,
            (data) => (data as { webhooks: unknown }).webhooks,
          )
        ).includes(id),
      success: () => ({ message: 'Webhook deleted', status: true, code: 200 }),
      notFound: 'Webhook not found',
    },
    {
      name: 'DELETE /api/agents/{id}',
      path: (id) => `/api/agents/${id}`,
      create: async (admin) =>
        (
          await t.http
            .post('/api/agents')
            .set(bearer(admin.token))
            .send({ agent_name: 'Short-lived' })
            .expect(201)
        ).body.data._id as string,
      visible: async (admin, id) =>
        (
          await ids('/api/agents?limit=100', admin, (data) => (data as { docs: unknown }).docs)
        ).includes(id),
      success: () => ({ message: 'Agent deleted', status: true, code: 200 }),
      notFound: 'Agent not found',
    },
    {
      name: 'DELETE /api/call/delete-batch/{id} (flagged deleted, hidden everywhere)',
      path: (id) => `/api/call/delete-batch/${id}`,
      create: async (admin) => (await calls.batch(admin.organizationId, admin.userId)).id,
      visible: async (admin, id) =>
        (await t.http.get(`/api/call/batch-details/${id}`).set(bearer(admin.token))).status === 200,
      success: () => ({ success: true, message: 'Batch deleted' }),
      notFound: 'Batch not found',
    },
    {
      name: 'DELETE /api/call/delete-phone/{id}',
      path: (id) => `/api/call/delete-phone/${id}`,
      create: async (admin) => (await calls.phone(admin.organizationId, admin.userId)).id,
      visible: async (admin, id) => (await ids('/api/call/phones', admin)).includes(id),
      success: (id) => ({ success: true, deletedId: id }),
      notFound: 'Phone number not found',
    },
  ];

  describe.each(routes)('$name', (route) => {
    const remove = (id: string, admin = owner) =>
      t.http.delete(route.path(id)).set(bearer(admin.token));
    const notFound = { status: false, code: 404, errorMessage: route.notFound };

    it('deletes with the contract body; the resource is gone and a second delete answers 404', async () => {
      const id = await route.create(owner);
      expect(await route.visible(owner, id)).toBe(true);
      expect((await remove(id).expect(200)).body).toEqual(route.success(id));
      expect(await route.visible(owner, id)).toBe(false);
      expect((await remove(id).expect(404)).body).toMatchObject(notFound);
    });

    it("answers 404 alike for an unknown id and another organization's (left in place), 400 for a malformed one", async () => {
      expect((await remove(UNKNOWN_ID).expect(404)).body).toMatchObject(notFound);
      const theirs = await route.create(stranger);
      expect((await remove(theirs).expect(404)).body).toMatchObject(notFound);
      expect(await route.visible(stranger, theirs)).toBe(true);
      expect((await remove('not-an-id').expect(400)).body).toMatchObject({
        status: false,
        code: 400,
      });
    });
  });
});
