import { PERMISSIONS } from '@app/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newObjectId } from '../../src/common/object-id';
import { JobName, JobQueue } from '../../src/queue';
import { JOB_LANES } from '../../src/queue/jobs';
import { createApiKey, createMember, registerOrganization } from '../support/factories';
import { operatorAdmin } from '../support/operator-admin';
import { startTestApp, type TestApp } from '../support/test-app';

const BOARD = '/admin/queues';

describe('queue board on BullMQ (/admin/queues)', () => {
  const operatorOrganization = newObjectId();
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({
      redis: true,
      // No worker: jobs enqueued below stay waiting, for the board to count.
      env: { QUEUE_BOARD_ORGANIZATIONS: operatorOrganization, PROCESS_ROLE: 'api' },
    });
    token = await operatorAdmin(t, operatorOrganization);
  });
  afterAll(() => t.close());

  it("lists the BullMQ queues with their jobs for the operator organization's admin", async () => {
    await t.app
      .get(JobQueue)
      .enqueue(
        JobName.IndexCallRecordSearch,
        { organizationId: operatorOrganization, batchId: newObjectId() },
        { delayMs: 60_000 },
      );

    const page = await t.http.get(BOARD).set('Authorization', `Bearer ${token}`).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Switchboard queues');

    const api = await t.http
      .get(`${BOARD}/api/queues`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const queues = api.body.queues as Array<{ name: string; counts: Record<string, number> }>;
    // Every BullMQ lane, the messaging one included.
    expect(queues.map((queue) => queue.name).sort()).toEqual(Object.keys(JOB_LANES).sort());
    expect(queues.find((queue) => queue.name === 'jobs')?.counts.delayed).toBe(1);
  });

  it('takes an API key as x-api-key, or as the Basic password a browser sends', async () => {
    const { key } = await createApiKey(t.http, token);
    await t.http.get(`${BOARD}/api/queues`).set('x-api-key', key).expect(200);
    const basic = Buffer.from(`operator:${key}`).toString('base64');
    await t.http.get(`${BOARD}/api/queues`).set('Authorization', `Basic ${basic}`).expect(200);
    const wrong = Buffer.from('operator:sk_wrong').toString('base64');
    await t.http.get(`${BOARD}/api/queues`).set('Authorization', `Basic ${wrong}`).expect(401);
  });

  it('asks a browser for credentials (401 with a Basic challenge) in the error envelope', async () => {
    const response = await t.http.get(BOARD).expect(401);
    expect(response.headers['www-authenticate']).toMatch(/^Basic realm="Switchboard queue board"/);
    expect(response.body).toMatchObject({ status: false, code: 401 });
  });

  it("refuses members, and admins of every other organization: the board shows every tenant's jobs", async () => {
    const member = await createMember(t.http, token, [...PERMISSIONS]);
    const asMember = await t.http
      .get(`${BOARD}/api/queues`)
      .set('Authorization', `Bearer ${member.token}`)
      .expect(403);
    expect(asMember.body.errorMessage).toBe('Administrator role required');

    const stranger = await registerOrganization(t.http);
    const asStranger = await t.http
      .get(`${BOARD}/api/queues`)
      .set('Authorization', `Bearer ${stranger.token}`)
      .expect(403);
    expect(asStranger.body.errorMessage).toMatch(/operator organization/);
    const strangerKey = await createApiKey(t.http, stranger.token);
    await t.http.get(BOARD).set('x-api-key', strangerKey.key).expect(403);
  });

  it('stays out of openapi.json: it is a page, not an operation of the API', () => {
    const spec = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8')) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(spec.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
  });
});

describe('queue board in embedded queue mode', () => {
  const operatorOrganization = newObjectId();
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { QUEUE_BOARD_ORGANIZATIONS: operatorOrganization } });
    token = await operatorAdmin(t, operatorOrganization);
  });
  afterAll(() => t.close());

  it('is absent (404): the in-process queue has no board', async () => {
    await t.http.get(BOARD).set('Authorization', `Bearer ${token}`).expect(404);
    await t.http.get(`${BOARD}/api/queues`).set('Authorization', `Bearer ${token}`).expect(404);
  });
});
