import type { Test } from 'supertest';
import type { BatchRow } from '../../src/modules/batches/batches.schema';
import { CallingFactories } from '../support/calling-factories';
import {
  createApiKey,
  createMember,
  registerOrganization,
  type RegisteredAdmin,
} from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

// One access rule for every route that names a batch: its owner, or an admin or API key of its
// organization; anyone else gets the 404 of a batch that does not exist.

jest.setTimeout(60_000);

let sequence = 0;
const nextNumber = () => `+1650888${String(1000 + (sequence += 1))}`;

type Auth = Record<string, string>;
const bearer = (token: string): Auth => ({ Authorization: `Bearer ${token}` });

interface Fixture {
  batch: BatchRow;
  phoneNumber: string;
  requestUUID: string;
}

describe('batch access', () => {
  let t: TestApp;
  let make: CallingFactories;
  let admin: RegisteredAdmin;
  let phoneId: string;
  let ownerId: string;
  const callers: Record<string, Auth> = {};

  beforeAll(async () => {
    t = await startTestApp();
    make = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    const owner = await createMember(t.http, admin.token, ['calls', 'dnc']);
    const colleague = await createMember(t.http, admin.token, ['calls', 'dnc']);
    const stranger = await registerOrganization(t.http);
    ownerId = owner.userId;
    callers.owner = bearer(owner.token);
    callers.colleague = bearer(colleague.token);
    callers.admin = bearer(admin.token);
    callers.apiKey = { 'x-api-key': (await createApiKey(t.http, admin.token)).key };
    callers.stranger = bearer(stranger.token);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A batch of the owner with one called contact, in the given queue status. */
  async function ownersBatch(queueStatus: 'active' | 'paused'): Promise<Fixture> {
    const batch = await make.batch(admin.organizationId, ownerId, {
      queueStatus,
      callingNumbers: [phoneId],
    });
    const [record] = await make.callRecords(batch, [{ phoneNumber: nextNumber() }]);
    const log = await make.phoneLog(record);
    return { batch, phoneNumber: record.phoneNumber, requestUUID: log.requestUuid };
  }

  const routes: {
    name: string;
    queueStatus: 'active' | 'paused';
    ok: number;
    send: (f: Fixture) => Test;
  }[] = [
    {
      name: 'GET /api/call/batch-details/{id}',
      queueStatus: 'active',
      ok: 200,
      send: (f) => t.http.get(`/api/call/batch-details/${f.batch.id}`),
    },
    {
      name: 'GET /api/call/export/csv',
      queueStatus: 'active',
      ok: 200,
      send: (f) => t.http.get('/api/call/export/csv').query({ batchId: f.batch.id }),
    },
    {
      name: 'POST /api/call/batches/{batchId}/contacts',
      queueStatus: 'active',
      ok: 201,
      send: (f) =>
        t.http
          .post(`/api/call/batches/${f.batch.id}/contacts`)
          .send({ contacts: [{ phoneNumber: nextNumber() }] }),
    },
    {
      name: 'POST /api/call/batches/{batchId}/pause',
      queueStatus: 'active',
      ok: 200,
      send: (f) => t.http.post(`/api/call/batches/${f.batch.id}/pause`),
    },
    {
      name: 'POST /api/call/batches/{batchId}/resume',
      queueStatus: 'paused',
      ok: 200,
      send: (f) => t.http.post(`/api/call/batches/${f.batch.id}/resume`),
    },
    {
      name: 'POST /api/dnc/add',
      queueStatus: 'active',
      ok: 200,
      send: (f) =>
        t.http.post('/api/dnc/add').send({
          phoneNumber: f.phoneNumber,
          batchId: f.batch.id,
          requestUUID: f.requestUUID,
        }),
    },
  ];

  it.each(routes)(
    '$name: owner, admin and API key reach the batch; another member and another organization get 404',
    async ({ queueStatus, ok, send }) => {
      const expected = { owner: ok, colleague: 404, admin: ok, apiKey: ok, stranger: 404 };
      const answered: Record<string, number> = {};
      for (const caller of Object.keys(expected)) {
        const response = await send(await ownersBatch(queueStatus)).set(callers[caller]);
        answered[caller] = response.status;
        if (response.status === 404) {
          expect(response.body).toMatchObject({ code: 404, errorMessage: 'Batch not found' });
        }
      }
      expect(answered).toEqual(expected);
    },
  );
});
