import { loadConfig } from '../../src/config';
import { GraphClient } from '../../src/modules/messaging/graph/graph-client';
import { GraphError } from '../../src/modules/messaging/graph/graph-error';
import { GraphFake, READ_RECEIPTS, sampleTemplate } from '../fakes';

/** The Graph API client against the fake, over real HTTP. */
describe('GraphClient', () => {
  let graph: GraphFake;
  let client: GraphClient;

  beforeAll(async () => {
    graph = await GraphFake.start();
    client = new GraphClient(
      loadConfig({
        DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
        JWT_SECRET: 'x'.repeat(40),
        ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
        MESSAGING_API_URL: graph.baseUrl,
        MESSAGING_API_VERSION: 'v24.0',
      }),
    );
  });
  afterAll(() => graph.close());

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a GraphError');
      },
      (error: unknown) => error as GraphError,
    );

  it('lists every template across pages, on the configured version', async () => {
    const { account, token } = graph.addAccount();
    account.templates.push(
      ...Array.from({ length: 250 }, (_, i) => sampleTemplate({ name: `t_${i}` })),
    );
    graph.clearRequests();
    const templates = await client.listTemplates(token, account.id);
    expect(templates.map((template) => template.name)).toEqual(
      Array.from({ length: 250 }, (_, i) => `t_${i}`),
    );
    expect(graph.requests).toHaveLength(3);
    expect([...graph.versions]).toEqual(['v24.0']);
    expect(graph.requests.every((r) => r.headers.authorization === `Bearer ${token}`)).toBe(true);
  });

  it('answers an unknown token with code 190 (auth), without the token in the message', async () => {
    const { account } = graph.addAccount();
    const error = await failure(
      client.getPhoneNumber('EAAG-secret-token-xyz', account.numbers[0].id),
    );
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ kind: 'auth', code: 190 });
    expect(error.message).not.toContain('EAAG-secret-token-xyz');
    expect(error.fbtraceId).toEqual(expect.any(String));
  });

  it('tells an unknown object (100/33) from a forbidden one (10)', async () => {
    const mine = graph.addAccount();
    const theirs = graph.addAccount();
    expect(await failure(client.getPhoneNumber(mine.token, '123'))).toMatchObject({
      kind: 'not_found',
    });
    expect(
      await failure(client.getPhoneNumber(mine.token, theirs.account.numbers[0].id)),
    ).toMatchObject({ kind: 'permission', code: 10 });
  });

  it('sets the per-number webhook override and reads it back', async () => {
    const { account, token } = graph.addAccount();
    const number = account.numbers[0];
    await client.subscribeApp(token, account.id);
    await client.setWebhookOverride(token, number.id, 'https://hooks.example.com/in', 'verify');
    expect(await client.getWebhookConfiguration(token, number.id)).toEqual({
      phone_number: 'https://hooks.example.com/in',
      application: 'https://app.example/default',
    });
  });

  it('marks a message read with the typing indicator, once, within its own bound', async () => {
    const { account, token } = graph.addAccount();
    const number = account.numbers[0];
    await client.markReadAndTyping(token, number.id, 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQ3', 2_000);
    expect(graph.readReceipts.at(-1)).toMatchObject({
      phoneNumberId: number.id,
      messageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQ3',
      typing: true,
    });
    expect(graph.requests.at(-1)?.body).toEqual({
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQ3',
      typing_indicator: { type: 'text' },
    });
    expect(
      await failure(client.markReadAndTyping(token, number.id, 'not-a-wamid', 2_000)),
    ).toMatchObject({ code: 131009 });
    // Not repeated after a failure, and given up at its bound when the platform hangs.
    graph.clearRequests();
    graph.failNext(1, 503, READ_RECEIPTS);
    expect(
      await failure(client.markReadAndTyping(token, number.id, 'wamid.A', 2_000)),
    ).toMatchObject({ isOutage: true });
    graph.stallNext(1, READ_RECEIPTS);
    const started = Date.now();
    expect(await failure(client.markReadAndTyping(token, number.id, 'wamid.B', 300))).toMatchObject(
      { kind: 'unreachable' },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(graph.requests).toHaveLength(2);
  });

  it('retries a platform failure on reads, then reports an outage', async () => {
    const { account, token } = graph.addAccount();
    graph.failNext(1, 500);
    expect((await client.getPhoneNumber(token, account.numbers[0].id)).id).toBe(
      account.numbers[0].id,
    );
    graph.failNext(3, 500);
    const error = await failure(client.getPhoneNumber(token, account.numbers[0].id));
    expect(error.isOutage).toBe(true);
  });
});
