import { randomBytes } from 'node:crypto';
import {
  createSwitchboardClient,
  type Schema,
  SwitchboardApiError,
  type SwitchboardClient,
  unwrap,
} from '@app/client';
import { PlivoFake } from '../fakes';
import { nanp } from '../support/provider-cases';
import { type ListeningTestApp, startListeningTestApp } from '../support/test-app';

/**
 * The typed client (libs/client) against the booted app over real HTTP: every call below is
 * checked by the compiler against openapi.json, and its answer by these assertions.
 */
describe('typed client (@app/client)', () => {
  let plivo: PlivoFake;
  let t: ListeningTestApp;
  let baseUrl: string;

  beforeAll(async () => {
    plivo = await PlivoFake.start();
    t = await startListeningTestApp({ env: { PROVIDER_ONE_API_URL: plivo.baseUrl } });
    baseUrl = t.baseUrl;
  });
  afterAll(async () => {
    await t?.close();
    await plivo?.close();
  });

  async function register(): Promise<{ session: Schema<'SessionDto'>; client: SwitchboardClient }> {
    const anonymous = createSwitchboardClient({ baseUrl });
    const { data: session } = await unwrap(
      anonymous.POST('/api/auth/register', {
        body: {
          organizationName: 'Acme',
          name: 'Ada',
          email: `ada-${randomBytes(5).toString('hex')}@example.com`,
          password: 'a long password',
        },
      }),
    );
    return { session, client: createSwitchboardClient({ baseUrl, token: session.accessToken }) };
  }

  it('registers, adds a phone, an agent, a batch with contacts, reads its details and exports it', async () => {
    const { session, client } = await register();
    expect(session.user).toMatchObject({ role: 'admin', name: 'Ada' });

    // A number the fake provider says this account owns.
    const account = plivo.addAccount();
    const callerId = nanp('628');
    plivo.addNumber(account, callerId);
    const { data: phone } = await unwrap(
      client.POST('/api/call/add-phone', {
        body: {
          userId: session.user._id,
          phoneNumber: callerId,
          integration: 'provider_one',
          accSId: account.authId,
          authToken: account.authToken,
        },
      }),
    );
    expect(phone).toMatchObject({ phoneNumber: callerId, integration: 'provider_one' });

    const { data: agent } = await unwrap(
      client.POST('/api/agents', {
        body: { agent_name: 'Ava', greeting: 'Hello from Acme.', language: 'en-US' },
      }),
    );
    expect(agent).toMatchObject({ agent_name: 'Ava', isDefault: true });

    const contacts = [
      { phoneNumber: nanp('212'), name: 'Grace', plan: 'gold' },
      { phoneNumber: nanp('312'), name: 'Alan', plan: 'silver' },
      { phoneNumber: 'not a number', name: 'Nobody' },
    ];
    const created = await unwrap(
      client.POST('/api/call/createBatch', {
        body: {
          batchName: 'Renewals',
          callingNumbers: [phone._id],
          agentId: agent._id,
          enforceCalleeLocalHours: false,
          contacts,
        },
      }),
    );
    const batchId: string = created.data;
    expect(created.contacts).toMatchObject({ received: 3, imported: 2, rejected: 1 });

    const { data: details } = await unwrap(
      client.GET('/api/call/batch-details/{id}', { params: { path: { id: batchId } } }),
    );
    expect(details).toMatchObject({ batchId, batchName: 'Renewals', agentId: agent._id, total: 2 });
    const rows: Schema<'CallRecordDto'>[] = details.data;
    expect(rows.map((row) => row.phoneNumber).sort()).toEqual(
      [contacts[0].phoneNumber, contacts[1].phoneNumber].sort(),
    );

    const exported = await client.GET('/api/call/export/csv', {
      params: { query: { batchId } },
      parseAs: 'text',
    });
    expect(exported.response.status).toBe(200);
    expect(exported.response.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv: string = exported.data!;
    const [header, ...lines] = csv.trimEnd().split('\r\n');
    expect(header.split(',')).toEqual(expect.arrayContaining(['_id', 'phoneNumber', 'plan']));
    expect(lines).toHaveLength(2);
    expect(csv).toContain('gold');
  });

  it('authenticates with an API key as well as a bearer token', async () => {
    const { client } = await register();
    const { data: key } = await unwrap(client.POST('/api/api-keys', { body: { name: 'CRM' } }));
    const byKey = createSwitchboardClient({ baseUrl, apiKey: key.key });
    const { data: me } = await unwrap(byKey.GET('/api/auth/me'));
    expect(me.role).toBe('admin');

    let reads = 0;
    const { session } = await register();
    const byTokenFunction = createSwitchboardClient({
      baseUrl,
      token: () => ((reads += 1), session.accessToken),
    });
    await unwrap(byTokenFunction.GET('/api/agents'));
    await unwrap(byTokenFunction.GET('/api/agents'));
    expect(reads).toBe(2);
  });

  it('turns error envelopes into a SwitchboardApiError', async () => {
    const anonymous = createSwitchboardClient({ baseUrl });
    const denied = await unwrap(anonymous.GET('/api/agents')).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(SwitchboardApiError);
    expect(denied).toMatchObject({ status: 401, body: { status: false, code: 401 } });

    const { client } = await register();
    const invalid = await unwrap(
      // The compiler refuses this body; the server must too.
      client.POST('/api/agents', { body: {} as Schema<'CreateAgentDto'> }),
    ).catch((error: unknown) => error);
    expect(invalid).toMatchObject({
      status: 400,
      body: {
        code: 400,
        errors: expect.arrayContaining([{ field: 'agent_name', message: expect.any(String) }]),
      },
    });
  });

  it('refuses to be given both an API key and a token', () => {
    expect(() =>
      createSwitchboardClient({ baseUrl, apiKey: 'k', token: 't' } as unknown as {
        baseUrl: string;
        apiKey: string;
      }),
    ).toThrow(/not both/);
  });
});
