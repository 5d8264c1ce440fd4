import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError as TheirError } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './index';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const NOW = new Date('2026-11-23T04:00:00.000Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
const body = JSON.stringify({
  type: 'call.completed',
  timestamp: NOW.toISOString(),
  data: { call_id: '65f1c0ffee0123456789abcd', sequence: 3, note: 'héllo ✓' },
});
const id = 'msg_2h3k4j5h6k7';

const sign = (secrets: string[], timestamp: Date | number = NOW, payload = body) =>
  signWebhook({ id, timestamp, body: payload, secrets });

describe('signWebhook', () => {
  it('produces the three Standard Webhooks headers, one v1 signature per secret', () => {
    const headers = sign([secret(), secret()]);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(NOW_SECONDS));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('matches the known Standard Webhooks test vector', () => {
    // From the standard-webhooks spec test suite.
    const headers = signWebhook({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('refuses to sign without a secret', () => {
    expect(() => sign([])).toThrow(TypeError);
  });
});

describe('interoperability with the standardwebhooks package', () => {
  beforeAll(() => jest.useFakeTimers({ now: NOW }));
  afterAll(() => jest.useRealTimers());

  it('their sign → our verify', () => {
    const key = secret();
    const signature = new Webhook(key).sign(id, NOW, body);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature,
    };
    expect(verifyWebhook(body, headers, key, { now: NOW })).toEqual(JSON.parse(body));
  });

  it('our sign → their verify, with one or two secrets', () => {
    const oldKey = secret();
    const newKey = secret();
    const headers = sign([newKey, oldKey]);
    expect(new Webhook(newKey).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(oldKey).verify(Buffer.from(body), { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret()).verify(body, { ...headers })).toThrow(TheirError);
  });

  it('their verify refuses what we signed when tampered', () => {
    const key = secret();
    const headers = sign([key]);
    expect(() => new Webhook(key).verify(body.replace('3', '4'), { ...headers })).toThrow(
      TheirError,
    );
  });
});

describe('verifyWebhook', () => {
  const key = secret();
  const verify = (
    headers: Partial<WebhookHeaders> | Record<string, string>,
    payload: string | Buffer = body,
    options = { now: NOW },
    secrets: string | string[] = key,
  ) => verifyWebhook(payload, headers, secrets, options);

  it('returns the parsed { type, timestamp, data }, from a Buffer too', () => {
    expect(verify(sign([key]))).toEqual(JSON.parse(body));
    expect(verify(sign([key]), Buffer.from(body))).toMatchObject({ type: 'call.completed' });
  });

  it('reads headers in any case and from a Fetch Headers object', () => {
    const headers = sign([key]);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify(upper)).toMatchObject({ type: 'call.completed' });
    expect(verifyWebhook(body, new Headers({ ...headers }), key, { now: NOW })).toMatchObject({
      type: 'call.completed',
    });
  });

  it('accepts any matching signature among several (rotation), on either side', () => {
    const other = secret();
    expect(verify(sign([other, key]))).toMatchObject({ type: 'call.completed' });
    expect(verify(sign([key]), body, { now: NOW }, [other, key])).toMatchObject({
      type: 'call.completed',
    });
  });

  it('ignores unknown versions such as v1a', () => {
    const headers = sign([key]);
    const v1a = headers['webhook-signature'].replace('v1,', 'v1a,');
    expect(() => verify({ ...headers, 'webhook-signature': v1a })).toThrow(
      'No matching signature found',
    );
    expect(
      verify({
        ...headers,
        'webhook-signature': `v1a,abcd ${headers['webhook-signature']} v2,xyz`,
      }),
    ).toMatchObject({ type: 'call.completed' });
  });

  it.each([
    ['a tampered body', (h: WebhookHeaders) => [h, body.replace('3', '4')]],
    ['a tampered id', (h: WebhookHeaders) => [{ ...h, 'webhook-id': 'msg_other' }, body]],
    [
      'a tampered timestamp',
      (h: WebhookHeaders) => [{ ...h, 'webhook-timestamp': String(NOW_SECONDS - 1) }, body],
    ],
    ['another secret', () => [sign([secret()]), body]],
    [
      'a truncated signature',
      (h: WebhookHeaders) => [
        { ...h, 'webhook-signature': h['webhook-signature'].slice(0, 20) },
        body,
      ],
    ],
    ['an empty v1 signature', (h: WebhookHeaders) => [{ ...h, 'webhook-signature': 'v1,' }, body]],
  ])('rejects %s', (_case, tamper) => {
    const [headers, payload] = tamper(sign([key])) as [WebhookHeaders, string];
    expect(() => verify(headers, payload)).toThrow(WebhookVerificationError);
  });

  it('rejects missing headers and a malformed timestamp', () => {
    const headers = sign([key]);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const partial: Partial<WebhookHeaders> = { ...headers };
      delete partial[name];
      expect(() => verify(partial)).toThrow(/Missing/);
    }
    expect(() => verify({ ...headers, 'webhook-timestamp': '17e8' })).toThrow(/Invalid/);
  });

  it('enforces the tolerance in both directions', () => {
    expect(verify(sign([key], NOW_SECONDS - 300))).toBeDefined();
    expect(verify(sign([key], NOW_SECONDS + 300))).toBeDefined();
    expect(() => verify(sign([key], NOW_SECONDS - 301))).toThrow('Message timestamp too old');
    expect(() => verify(sign([key], NOW_SECONDS + 301))).toThrow('Message timestamp too new');
    expect(
      verifyWebhook(body, sign([key], NOW_SECONDS - 3000), key, {
        now: NOW,
        toleranceSeconds: 3600,
      }),
    ).toBeDefined();
  });

  it('rejects an authentic body that is not a webhook event', () => {
    expect(() => verify(sign([key], NOW, 'not json'), 'not json')).toThrow(/not JSON/);
    expect(() => verify(sign([key], NOW, '{"a":1}'), '{"a":1}')).toThrow(/type, timestamp, data/);
  });
});
