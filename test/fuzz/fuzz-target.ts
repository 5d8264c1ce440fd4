import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import type { WebhookDnsResolver } from '../../src/modules/webhooks/ssrf/target-policy';
import { startProviderFakes, type ProviderFakes } from '../fakes';
import { CallingFactories } from '../support/calling-factories';
import { createApiKey, createMember, registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgedTokens } from '../support/tokens';
import { FORGERY_COUNT } from './case-generator';
import type { Credentials } from './http-client';
import type { IdPool } from './schema-values';

export type Driver = 'postgres' | 'pglite';

/** A running app on its own fresh database, with real resources to aim ids at. */
export interface FuzzTarget {
  driver: Driver;
  baseUrl: string;
  credentials: Credentials;
  ids: IdPool;
  close(): Promise<void>;
}

/** Every host name is public for the SSRF check; the egress guard stops the connections. */
const publicDns: WebhookDnsResolver = () =>
  Promise.resolve([{ address: '93.184.216.34', family: 4 }]);

/** No outside service is reachable: providers are local fakes, callbacks go to a closed port. */
function isolatedEnv(fakes: ProviderFakes): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
    ...fakes.env,
    PUBLIC_BASE_URL: 'http://127.0.0.1:9',
    MESSAGING_API_URL: 'http://127.0.0.1:9',
    // each case comes from its own X-Forwarded-For address, so per-address throttles still
    // answer 429 where they should without turning every later case into a 429
    TRUST_PROXY: 'true',
    // No dialing behind the cases' backs: a batch's state changes only by the requests sent.
    DIALER_TICK_MS: '0',
  };
}

export async function startFuzzTarget(driver: Driver): Promise<FuzzTarget> {
  const fakes = await startProviderFakes();
  let app: NestExpressApplication;
  let stop: () => Promise<void>;
  if (driver === 'postgres') {
    const t: TestApp = await startTestApp({
      env: isolatedEnv(fakes),
      webhookDnsResolver: publicDns,
    });
    app = t.app;
    stop = () => t.close();
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-fuzz-pglite-'));
    const config = loadConfig({ ...isolatedEnv(fakes), DATA_DIR: dataDir });
    app = await createApp(config, { logger: false, webhookDnsResolver: publicDns });
    await app.init();
    stop = async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const seeded = await seed(app, baseUrl, fakes);
    return {
      driver,
      baseUrl,
      ...seeded,
      close: async () => {
        await stop();
        await fakes.close();
      },
    };
  } catch (error) {
    await stop();
    await fakes.close();
    throw error;
  }
}

/** One of each resource the paths name, created through the API where it can be. */
async function seed(app: NestExpressApplication, baseUrl: string, fakes: ProviderFakes) {
  const http = request(baseUrl);
  const admin = await registerOrganization(http);
  const auth = { Authorization: `Bearer ${admin.token}` };
  const apiKey = await createApiKey(http, admin.token, 'fuzz harness');
  const sacrificialKey = await createApiKey(http, admin.token, 'fuzz target');
  const member = await createMember(http, admin.token, ['calls']);

  const phone = await http
    .post('/api/call/add-phone')
    .set(auth)
    .send({
      userId: admin.userId,
      phoneNumber: fakes.twilio.number,
      integration: 'provider_two',
      authToken: fakes.twilio.authToken,
      accSId: fakes.twilio.accountSid,
    })
    .expect(201);
  const phoneId = phone.body.data._id as string;
  const batch = await http
    .post('/api/call/createBatch')
    .set(auth)
    .send({
      batchName: 'Fuzz batch',
      callingNumbers: [phoneId],
      contacts: [{ phoneNumber: '+14155550123', name: 'Ada' }],
    })
    .expect(201);
  const batchId = batch.body.data as string;
  const paused = await http.post(`/api/call/batches/${batchId}/pause`).set(auth);
  if (paused.status !== 200) throw new Error(JSON.stringify(paused.body));

  // A call that happened (the dialer writes phone logs; no route does): the DNC entry needs one.
  const factories = new CallingFactories({ app } as TestApp);
  const [batchRow] = await app
    .get(Database)
    .db.select()
    .from(batches)
    .where(eq(batches.id, batchId));
  const [record] = await factories.callRecords(batchRow, [
    { phoneNumber: '+14155550199', name: 'Zed', note: 'called once' },
  ]);
  const log = await factories.phoneLog(record, {
    transcript: 'hello',
    recordingUrl: 'https://r.example.com/1.mp3',
  });
  await http
    .post('/api/dnc/add')
    .set(auth)
    .send({ phoneNumber: record.phoneNumber, batchId, requestUUID: log.requestUuid, type: 'fuzz' })
    .expect(200);
  const dnc = await http.get('/api/dnc').set(auth).expect(200);

  const webhook = await http
    .post('/api/webhooks')
    .set(auth)
    .send({ name: 'Fuzz hook', url: 'https://hooks.example.com/fuzz', events: ['call.completed'] })
    .expect(201);
  const webhookId = webhook.body.data._id as string;
  await http.post(`/api/webhooks/${webhookId}/test`).set(auth).expect(202);
  const deliveries = await http.get(`/api/webhooks/${webhookId}/deliveries`).set(auth).expect(200);

  const agent = await http
    .post('/api/agents')
    .set(auth)
    .send({ agent_name: 'Fuzz agent', greeting: 'Hello' })
    .expect(201);
  await http.post('/api/agents').set(auth).send({ agent_name: 'Second fuzz agent' }).expect(201);
  const videoAgent = await http
    .post('/api/video-agent')
    .set(auth)
    .send({ name: 'Fuzz video agent', voiceId: '21m00Tcm4TlvDq8ikWAM' })
    .expect(201);

  const ids: IdPool = {
    agent: [agent.body.data._id as string],
    // "Video agent id" also names "agent": its paths get both kinds, some 404s among the 200s.
    'video agent': [videoAgent.body.data.id as string],
    user: [admin.userId, member.userId],
    batch: [batchId],
    phone: [phoneId],
    webhook: [webhookId],
    delivery: idsOf(deliveries.body.data.deliveries),
    dnc: idsOf(dnc.body.data.entries),
    key: [sacrificialKey.id],
  };
  const forged = Object.values(
    forgedTokens({ sub: admin.userId, org: admin.organizationId }),
  ).slice(0, FORGERY_COUNT);
  const credentials: Credentials = {
    apiKey: apiKey.key,
    adminToken: admin.token,
    memberToken: member.token,
    forgedJwts: forged,
    forgedKeys: [
      `${apiKey.key.slice(0, -4)}AAAA`,
      apiKey.key.slice(0, 10),
      randomBytes(24).toString('base64url'),
      '',
      ' ',
      'x'.repeat(4000),
      `${apiKey.key}\t`,
      'null',
    ],
  };
  return { credentials, ids };
}

const idsOf = (rows: { _id: string }[]) => rows.map((row) => row._id);
