import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PlivoFake,
  TelnyxFake,
  TwilioFake,
  generateEd25519KeyPair,
  plivoV3Signature,
  plivoV3SignedString,
  startProviderFakes,
  telnyxSignature,
  twilioSignature,
  type PlivoAccount,
  type TelnyxAccount,
  type TwilioAccount,
} from '../fakes';
import { applyFaultPlan, parseFaultPlan, parseModelFaults } from '../fakes/fault-plan';
import { ChatFake } from '../fakes/chat.fake';

// ------------------------------------------------------------ helpers

// `body` is JSON.parse's `any`, as supertest's is in the other integration tests.
async function http(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const json = (auth: string, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { authorization: auth, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const form = (auth: string, body: URLSearchParams): RequestInit => ({
  method: 'POST',
  headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
  body: body.toString(),
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  accepted: boolean;
}

/**
 * A stand-in for Switchboard's callback endpoints: checks each request with `check` (written
 * here with node:crypto, independent of test/fakes/signatures.ts) and answers 401 when it fails;
 * answer URLs get Plivo XML / TwiML back.
 */
async function startReceiver(check: (r: Omit<Received, 'accepted'>) => boolean) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: `${base}${req.url ?? ''}`,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      const accepted = check(r);
      received.push({ ...r, accepted });
      if (!accepted) return void res.writeHead(401).end('bad signature');
      if (r.url.includes('/answer')) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        return void res.end('<?xml version="1.0"?><Response><Speak>Hello</Speak></Response>');
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const equal = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const header = (h: IncomingHttpHeaders, name: string) => {
  const value = h[name];
  return typeof value === 'string' ? value : '';
};

function sortedPairs(params: URLSearchParams, join: (k: string, v: string) => string): string[] {
  return [...new Set(params.keys())]
    .sort()
    .flatMap((k) => [...params.getAll(k)].sort().map((v) => join(k, v)));
}

function twilioAccepts(token: string, r: Omit<Received, 'accepted'>): boolean {
  const params = new URLSearchParams(r.rawBody);
  let data = r.url;
  for (const key of [...new Set(params.keys())].sort())
    for (const value of [...new Set(params.getAll(key))].sort()) data += key + value;
  const expected = createHmac('sha1', token).update(data).digest('base64');
  return equal(expected, header(r.headers, 'x-twilio-signature'));
}

function plivoAccepts(token: string, r: Omit<Received, 'accepted'>): boolean {
  const [base, query = ''] = r.url.split('?');
  const q = sortedPairs(new URLSearchParams(query), (k, v) => `${k}=${v}`).join('&');
  const body = sortedPairs(new URLSearchParams(r.rawBody), (k, v) => k + v).join('');
  const signed = `${base}?${q}${q ? '.' : ''}${body}.${header(r.headers, 'x-plivo-signature-v3-nonce')}`;
  const expected = createHmac('sha256', token).update(signed).digest('base64');
  return header(r.headers, 'x-plivo-signature-v3')
    .split(',')
    .some((candidate) => equal(candidate, expected));
}

function telnyxAccepts(rawPublicKey: string, r: Omit<Received, 'accepted'>): boolean {
  const timestamp = header(r.headers, 'telnyx-timestamp');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = createPublicKey({
    key: Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(rawPublicKey, 'base64'),
    ]),
    format: 'der',
    type: 'spki',
  });
  const signature = Buffer.from(header(r.headers, 'telnyx-signature-ed25519'), 'base64');
  return verify(null, Buffer.from(`${timestamp}|${r.rawBody}`), key, signature);
}

// ------------------------------------------------------------ signatures

describe('provider signature test vectors', () => {
  it('reproduces the Twilio vector', () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    };
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('reproduces the three Plivo V3 vectors', () => {
    const token = 'MAXXXXXXXXXXXXXXXXXX_token';
    const nonce = '12345678901234567890';
    const hangup = {
      CallUUID: 'abc-123',
      CallStatus: 'completed',
      Duration: '12',
      From: '14155551234',
    };
    const url = 'https://example.com/plivo/hangup';
    expect(plivoV3SignedString('POST', url, hangup)).toBe(
      'https://example.com/plivo/hangup?CallStatuscompletedCallUUIDabc-123Duration12From14155551234',
    );
    expect(plivoV3Signature(token, 'POST', url, hangup, nonce)).toBe(
      'uIbCcxWZWjlntl3M5ih98BdmMtI8oDO3Nb6aK14F0Mw=',
    );
    const withQuery = `${url}?callId=42&b=2`;
    const short = { CallUUID: 'abc-123', CallStatus: 'completed' };
    expect(plivoV3SignedString('POST', withQuery, short)).toBe(
      `${url}?b=2&callId=42.CallStatuscompletedCallUUIDabc-123`,
    );
    expect(plivoV3Signature(token, 'POST', withQuery, short, nonce)).toBe(
      'yFy8rPqrFhAtlg6JGEeg6ucCEwlrSRp84IxVA0wozEU=',
    );
    const answer = 'https://example.com/plivo/answer?x=1';
    expect(plivoV3Signature(token, 'GET', answer, { CallUUID: 'abc-123' }, nonce)).toBe(
      'yr3dPz3aU+FGsEdyVqwo74nOgayc28c+72pmgRHkCMc=',
    );
  });

  it('signs Telnyx webhooks that verify with the raw public key', () => {
    const pair = generateEd25519KeyPair();
    expect(Buffer.from(pair.publicKey, 'base64')).toHaveLength(32);
    const body = '{"data":{}}';
    const headers = {
      'telnyx-timestamp': String(Math.floor(Date.now() / 1000)),
      'telnyx-signature-ed25519': '',
    };
    headers['telnyx-signature-ed25519'] = telnyxSignature(
      pair.privateKey,
      headers['telnyx-timestamp'],
      body,
    );
    const r = { method: 'POST', url: '', headers, rawBody: body };
    expect(telnyxAccepts(pair.publicKey, r)).toBe(true);
    expect(telnyxAccepts(pair.publicKey, { ...r, rawBody: '{"data":{"x":1}}' })).toBe(false);
  });
});

// ------------------------------------------------------------ Plivo

describe('Plivo fake (provider_one)', () => {
  let fake: PlivoFake;
  let account: PlivoAccount;
  let auth: string;
  let api: string;
  beforeEach(async () => {
    fake = await PlivoFake.start();
    account = fake.addAccount();
    fake.addNumber(account, '+14155551234');
    auth = basic(account.authId, account.authToken);
    api = `${fake.baseUrl}/v1/Account/${account.authId}`;
  });
  afterEach(() => fake.close());

  it('checks Basic auth and answers 401 with {api_id, error}', async () => {
    const ok = await http(`${api}/`, { headers: { authorization: auth } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ auth_id: account.authId, api_id: expect.any(String) });
    const bad = await http(`${api}/`, { headers: { authorization: basic(account.authId, 'x') } });
    expect(bad).toMatchObject({
      status: 401,
      body: { api_id: expect.any(String), error: expect.any(String) },
    });
    expect((await http(`${api}/`)).status).toBe(401);
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
      auth,
      basic(account.authId, 'x'),
      undefined,
    ]);
  });

  it('shows number ownership: digits only, 404 when not owned', async () => {
    const owned = await http(`${api}/Number/14155551234/`, { headers: { authorization: auth } });
    expect(owned.status).toBe(200);
    expect(owned.body).toMatchObject({
      number: '14155551234',
      voice_enabled: true,
      application: null,
    });
    const other = await http(`${api}/Number/14155550000/`, { headers: { authorization: auth } });
    expect(other).toMatchObject({ status: 404, body: { error: 'not found' } });
    const plus = await http(`${api}/Number/+14155551234/`, { headers: { authorization: auth } });
    expect(plus.status).toBe(404);
  });

  it('creates, lists, updates and attaches an Application', async () => {
    const empty = await http(`${api}/Application/`, { headers: { authorization: auth } });
    expect(empty.body).toMatchObject({
      meta: { limit: 20, offset: 0, next: null, previous: null, total_count: 0 },
      objects: [],
    });
    const bad = await http(
      `${api}/Application/`,
      json(auth, { app_name: 'has space', answer_url: 'https://x.test/a' }),
    );
    expect(bad.status).toBe(400);
    const created = await http(
      `${api}/Application/`,
      json(auth, {
        app_name: 'switchboard-1',
        answer_url: 'https://x.test/answer',
        hangup_url: 'https://x.test/hangup',
      }),
    );
    expect(created).toMatchObject({
      status: 201,
      body: { message: 'created', app_id: expect.any(String) },
    });
    const appId = created.body.app_id as string;
    const dup = await http(
      `${api}/Application/`,
      json(auth, { app_name: 'switchboard-1', answer_url: 'https://x.test/a' }),
    );
    expect(dup.status).toBe(400);
    const updated = await http(
      `${api}/Application/${appId}/`,
      json(auth, { answer_url: 'https://y.test/answer' }),
    );
    expect(updated).toMatchObject({ status: 202, body: { message: 'changed' } });
    expect(fake.applications(account)[0]).toMatchObject({
      answerUrl: 'https://y.test/answer',
      hangupUrl: 'https://x.test/hangup',
    });
    const attach = await http(`${api}/Number/14155551234/`, json(auth, { app_id: appId }));
    expect(attach).toMatchObject({ status: 202, body: { message: 'changed' } });
    const number = await http(`${api}/Number/14155551234/`, { headers: { authorization: auth } });
    expect(number.body.application).toBe(`/v1/Account/${account.authId}/Application/${appId}/`);
    // Behind Switchboard's back: detach the number.
    fake.number(account, '14155551234')!.appId = null;
    const detached = await http(`${api}/Number/14155551234/`, { headers: { authorization: auth } });
    expect(detached.body.application).toBeNull();
  });

  it('pages applications with limit/offset', async () => {
    for (let i = 0; i < 21; i += 1)
      fake.addApplication(account, { appName: `app_${i}`, answerUrl: 'https://x.test/a' });
    const first = await http(`${api}/Application/?limit=20&offset=0`, {
      headers: { authorization: auth },
    });
    expect(first.body.objects).toHaveLength(20);
    expect(first.body.meta).toMatchObject({
      total_count: 21,
      next: `/v1/Account/${account.authId}/Application/?limit=20&offset=20`,
    });
    const second = await http(`${fake.baseUrl}${first.body.meta.next}`, {
      headers: { authorization: auth },
    });
    expect(second.body.objects.map((o: { app_name: string }) => o.app_name)).toEqual(['app_20']);
    expect(
      (await http(`${api}/Application/?limit=50`, { headers: { authorization: auth } })).status,
    ).toBe(400);
  });

  it('injects 429 with Retry-After and failures scoped to a path', async () => {
    fake.rateLimitNext(1, 3);
    const limited = await http(`${api}/`, { headers: { authorization: auth } });
    expect(limited).toMatchObject({
      status: 429,
      body: { api_id: expect.any(String), error: expect.any(String) },
    });
    expect(limited.headers.get('retry-after')).toBe('3');
    fake.failNext(1, 500, { method: 'POST', path: '/Application/' });
    expect((await http(`${api}/`, { headers: { authorization: auth } })).status).toBe(200);
    const failed = await http(
      `${api}/Application/`,
      json(auth, { app_name: 'a', answer_url: 'https://x.test/a' }),
    );
    expect(failed).toMatchObject({ status: 500, body: { error: 'server error' } });
  });

  it('places a call and posts V3-signed callbacks to the URLs it was given', async () => {
    const receiver = await startReceiver((r) => plivoAccepts(account.authToken, r));
    try {
      const urls = {
        answer_url: `${receiver.base}/plivo/answer?callId=c1`,
        ring_url: `${receiver.base}/plivo/ring?callId=c1`,
        hangup_url: `${receiver.base}/plivo/hangup?callId=c1`,
      };
      const placed = await http(
        `${api}/Call/`,
        json(auth, { from: '14155551234', to: '14155550000', ...urls }),
      );
      expect(placed).toMatchObject({
        status: 201,
        body: { message: 'call fired', request_uuid: expect.any(String) },
      });
      const id = placed.body.request_uuid as string;
      expect(await fake.advanceCall(id, 'ringing')).toBe(200);
      expect(await fake.advanceCall(id, 'in-progress')).toBe(200);
      expect(fake.call(id).answerFetch).toMatchObject({
        status: 200,
        responseContentType: 'application/xml',
      });
      const { callUuid } = fake.call(id);
      const byRequest = await http(`${api}/Call/${id}/`, {
        method: 'DELETE',
        headers: { authorization: auth },
      });
      expect(byRequest.status).toBe(404);
      const transfer = await http(
        `${api}/Call/${callUuid}/`,
        json(auth, { legs: 'aleg', aleg_url: 'https://x.test/t' }),
      );
      expect(transfer).toMatchObject({ status: 202, body: { message: 'call transferred' } });
      const hangup = await http(`${api}/Call/${callUuid}/`, {
        method: 'DELETE',
        headers: { authorization: auth },
      });
      expect(hangup.status).toBe(204);
      expect(await fake.advanceCall(id, 'completed', { Duration: '12' })).toBe(200);
      expect(await fake.advanceCall(id, 'completed').catch((e: Error) => e.message)).toMatch(
        /already ended/,
      );
      expect(receiver.received.map((r) => [new URL(r.url).pathname, r.accepted])).toEqual([
        ['/plivo/ring', true],
        ['/plivo/answer', true],
        ['/plivo/hangup', true],
      ]);
      const last = new URLSearchParams(receiver.received[2].rawBody);
      expect(Object.fromEntries(last)).toMatchObject({
        CallUUID: fake.call(id).callUuid,
        ALegRequestUUID: id,
        CallStatus: 'completed',
        Direction: 'outbound',
        Duration: '12',
        HangupSource: 'API Request',
        From: '14155551234',
        To: '14155550000',
      });
      expect(await fake.replayLastCallback(id, { signature: 'invalid' })).toBe(401);
      expect(await fake.replayLastCallback(id)).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});

// ------------------------------------------------------------ Twilio

describe('Twilio fake (provider_two)', () => {
  let fake: TwilioFake;
  let account: TwilioAccount;
  let auth: string;
  let api: string;
  beforeEach(async () => {
    fake = await TwilioFake.start();
    account = fake.addAccount();
    fake.addNumber(account, '+14155551234');
    auth = basic(account.sid, account.authToken);
    api = `${fake.baseUrl}/2010-04-01/Accounts/${account.sid}`;
  });
  afterEach(() => fake.close());

  it('answers bad credentials with error 20003 and reports account status', async () => {
    const bad = await http(`${api}.json`, {
      headers: { authorization: basic(account.sid, 'nope') },
    });
    expect(bad).toMatchObject({
      status: 401,
      body: {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    });
    const ok = await http(`${api}.json`, { headers: { authorization: auth } });
    expect(ok.body).toMatchObject({ sid: account.sid, status: 'active', type: 'Full' });
    account.status = 'suspended';
    expect((await http(`${api}.json`, { headers: { authorization: auth } })).body.status).toBe(
      'suspended',
    );
  });

  it('lists IncomingPhoneNumbers in the exact page envelope', async () => {
    const listing = (number: string) =>
      `${api}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}&PageSize=20`;
    const url = listing('+14155551234');
    const owned = await http(url, { headers: { authorization: auth } });
    expect(owned.status).toBe(200);
    expect(Object.keys(owned.body).sort()).toEqual([
      'end',
      'first_page_uri',
      'incoming_phone_numbers',
      'next_page_uri',
      'page',
      'page_size',
      'previous_page_uri',
      'start',
      'uri',
    ]);
    expect(owned.body).toMatchObject({
      page: 0,
      page_size: 20,
      next_page_uri: null,
      start: 0,
      end: 0,
    });
    expect(owned.body.incoming_phone_numbers[0]).toMatchObject({
      sid: expect.stringMatching(/^PN[0-9a-f]{32}$/),
      phone_number: '+14155551234',
      capabilities: { voice: true },
    });
    // Built, not edited: the fake's port or the account SID may hold "1234" too.
    const none = await http(listing('+14155550000'), { headers: { authorization: auth } });
    expect(none.body.incoming_phone_numbers).toEqual([]);
  });

  it('configures VoiceUrl and StatusCallback on the number, form bodies only', async () => {
    const pn = fake.number(account, '+14155551234')!;
    const body = new URLSearchParams({
      VoiceUrl: 'https://sb.test/voice',
      VoiceMethod: 'POST',
      StatusCallback: 'https://sb.test/status',
      StatusCallbackMethod: 'POST',
      VoiceApplicationSid: '',
    });
    const res = await http(`${api}/IncomingPhoneNumbers/${pn.sid}.json`, form(auth, body));
    expect(res).toMatchObject({
      status: 200,
      body: { voice_url: 'https://sb.test/voice', status_callback: 'https://sb.test/status' },
    });
    expect(fake.requestsTo('POST', `/IncomingPhoneNumbers/${pn.sid}.json`)[0].body).toEqual(
      Object.fromEntries(body),
    );
    await http(
      `${api}/IncomingPhoneNumbers/${pn.sid}.json`,
      json(auth, { VoiceUrl: 'https://ignored.test' }),
    );
    expect(pn.voiceUrl).toBe('https://sb.test/voice');
    const missing = await http(`${api}/IncomingPhoneNumbers/PN0.json`, {
      headers: { authorization: auth },
    });
    expect(missing).toMatchObject({ status: 404, body: { code: 20404 } });
  });

  it('answers 429 with code 20429 and Retry-After', async () => {
    fake.rateLimitNext(2, 5);
    for (let i = 0; i < 2; i += 1) {
      const res = await http(`${api}.json`, { headers: { authorization: auth } });
      expect(res).toMatchObject({ status: 429, body: { code: 20429, status: 429 } });
      expect(res.headers.get('retry-after')).toBe('5');
    }
    expect((await http(`${api}.json`, { headers: { authorization: auth } })).status).toBe(200);
  });

  it('places a call and posts X-Twilio-Signature callbacks for the requested events', async () => {
    const receiver = await startReceiver((r) => twilioAccepts(account.authToken, r));
    try {
      const body = new URLSearchParams({
        To: '+14155550000',
        From: '+14155551234',
        Url: `${receiver.base}/twilio/answer?callId=c1`,
        StatusCallback: `${receiver.base}/twilio/status?callId=c1&token=t`,
        StatusCallbackMethod: 'POST',
      });
      for (const event of ['initiated', 'answered', 'completed'])
        body.append('StatusCallbackEvent', event);
      const placed = await http(`${api}/Calls.json`, form(auth, body));
      expect(placed).toMatchObject({
        status: 201,
        body: { sid: expect.stringMatching(/^CA/), status: 'queued' },
      });
      const sid = placed.body.sid as string;
      expect(fake.call(sid).statusCallbackEvents).toEqual(['initiated', 'answered', 'completed']);
      expect(fake.requests.at(-1)?.body).toMatchObject({
        StatusCallbackEvent: ['initiated', 'answered', 'completed'],
      });
      expect(await fake.advanceCall(sid, 'initiated')).toBe(200);
      expect(await fake.advanceCall(sid, 'ringing')).toBeUndefined();
      expect(await fake.advanceCall(sid, 'in-progress')).toBe(200);
      expect(fake.call(sid).answerFetch).toMatchObject({ status: 200, kind: 'answer' });
      const hangup = await http(
        `${api}/Calls/${sid}.json`,
        form(auth, new URLSearchParams({ Status: 'completed' })),
      );
      expect(hangup.status).toBe(200);
      expect(await fake.advanceCall(sid, 'completed', { CallDuration: '30' })).toBe(200);
      const statuses = receiver.received.filter((r) => r.url.includes('/status'));
      expect(statuses.map((r) => new URLSearchParams(r.rawBody).get('CallStatus'))).toEqual([
        'initiated',
        'in-progress',
        'completed',
      ]);
      expect(statuses.map((r) => new URLSearchParams(r.rawBody).get('SequenceNumber'))).toEqual([
        '0',
        '1',
        '2',
      ]);
      expect(Object.fromEntries(new URLSearchParams(statuses[2].rawBody))).toMatchObject({
        CallSid: sid,
        AccountSid: account.sid,
        Direction: 'outbound-api',
        CallDuration: '30',
      });
      expect(receiver.received.every((r) => r.accepted)).toBe(true);
      expect(await fake.replayLastCallback(sid, { signature: 'missing' })).toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it('refuses calls from numbers the account does not own', async () => {
    const body = new URLSearchParams({
      To: '+14155550000',
      From: '+14150000000',
      Url: 'https://x.test/a',
    });
    const res = await http(`${api}/Calls.json`, form(auth, body));
    expect(res).toMatchObject({ status: 400, body: { code: 21210 } });
  });
});

// ------------------------------------------------------------ Telnyx

describe('Telnyx fake (provider_three)', () => {
  let fake: TelnyxFake;
  let account: TelnyxAccount;
  let auth: string;
  beforeEach(async () => {
    fake = await TelnyxFake.start();
    account = fake.addAccount();
    fake.addNumber(account, '+14155551234');
    auth = `Bearer ${account.apiKey}`;
  });
  afterEach(() => fake.close());
  const get = (path: string) =>
    http(`${fake.baseUrl}${path}`, { headers: { authorization: auth } });

  it('checks the Bearer key and answers 401 with error 10009', async () => {
    expect((await get('/v2/balance')).body.data).toMatchObject({
      record_type: 'balance',
      currency: 'USD',
    });
    const bad = await http(`${fake.baseUrl}/v2/balance`, {
      headers: { authorization: 'Bearer KEYwrong' },
    });
    expect(bad).toMatchObject({
      status: 401,
      body: { errors: [{ code: '10009', title: 'Authentication failed' }] },
    });
  });

  it('filters phone numbers by digits: `+` or too few digits find nothing', async () => {
    const found = await get(
      '/v2/phone_numbers?filter%5Bphone_number%5D=14155551234&page%5Bsize%5D=20',
    );
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({
      phone_number: '+14155551234',
      status: 'active',
      connection_id: null,
      record_type: 'phone_number',
    });
    expect(found.body.meta).toEqual({
      page_number: 1,
      page_size: 20,
      total_pages: 1,
      total_results: 1,
    });
    const plus = await get(
      `/v2/phone_numbers?filter%5Bphone_number%5D=${encodeURIComponent('+14155551234')}`,
    );
    expect(plus.body.data).toEqual([]);
    expect((await get('/v2/phone_numbers?filter%5Bphone_number%5D=14')).status).toBe(400);
  });

  it('creates, finds, patches Call Control Applications and assigns the number', async () => {
    const apps = `${fake.baseUrl}/v2/call_control_applications`;
    const missing = await http(apps, json(auth, { application_name: 'switchboard-x' }));
    expect(missing).toMatchObject({
      status: 422,
      body: { errors: [{ code: '10004', source: { pointer: '/webhook_event_url' } }] },
    });
    const profiles = await get('/v2/outbound_voice_profiles');
    const profileId = profiles.body.data[0].id as string;
    const created = await http(
      apps,
      json(auth, {
        application_name: 'switchboard-x',
        webhook_event_url: 'https://sb.test/telnyx',
        outbound: { outbound_voice_profile_id: profileId },
      }),
    );
    expect(created).toMatchObject({
      status: 201,
      body: { data: { id: expect.any(String), record_type: 'call_control_application' } },
    });
    const appId = created.body.data.id as string;
    const listed = await get(
      '/v2/call_control_applications?filter%5Bapplication_name%5D%5Bcontains%5D=SWITCHBOARD',
    );
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([appId]);
    const partial = await http(
      `${apps}/${appId}`,
      json(auth, { webhook_event_url: 'https://sb.test/other' }, 'PATCH'),
    );
    expect(partial.status).toBe(422);
    const patched = await http(
      `${apps}/${appId}`,
      json(
        auth,
        { application_name: 'switchboard-x', webhook_event_url: 'https://sb.test/v2' },
        'PATCH',
      ),
    );
    expect(patched.body.data.webhook_event_url).toBe('https://sb.test/v2');
    const number = fake.number(account, '+14155551234')!;
    const assigned = await http(
      `${fake.baseUrl}/v2/phone_numbers/${number.id}`,
      json(auth, { connection_id: appId }, 'PATCH'),
    );
    expect(assigned.body.data).toMatchObject({
      connection_id: appId,
      connection_name: 'switchboard-x',
    });
    const unknown = await http(
      `${fake.baseUrl}/v2/phone_numbers/${number.id}`,
      json(auth, { connection_id: '1' }, 'PATCH'),
    );
    expect(unknown.status).toBe(422);
    // Behind Switchboard's back: point the number at another connection.
    number.connectionId = fake.addApplication(account, {
      applicationName: 'other',
      webhookEventUrl: 'https://o.test',
    }).id;
    expect((await get(`/v2/phone_numbers/${number.id}`)).body.data.connection_name).toBe('other');
  });

  it('answers 429 with x-ratelimit headers', async () => {
    fake.rateLimitNext(1, 7);
    const res = await get('/v2/balance');
    expect(res).toMatchObject({
      status: 429,
      body: { errors: [{ code: '10011', title: 'Too many requests' }] },
    });
    expect(res.headers.get('x-ratelimit-reset')).toBe('7');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('dials and posts Ed25519-signed webhooks carrying client_state', async () => {
    const receiver = await startReceiver((r) => telnyxAccepts(fake.publicKey, r));
    try {
      const profile = [...account.outboundVoiceProfiles.values()][0];
      const app = fake.addApplication(account, {
        applicationName: 'switchboard-y',
        webhookEventUrl: `${receiver.base}/telnyx/events?token=t`,
        outbound: { channelLimit: null, outboundVoiceProfileId: profile.id },
      });
      const clientState = Buffer.from('call-42').toString('base64');
      const dial = await http(
        `${fake.baseUrl}/v2/calls`,
        json(auth, {
          connection_id: app.id,
          to: '+14155550000',
          from: '+14155551234',
          client_state: clientState,
        }),
      );
      expect(dial).toMatchObject({
        status: 200,
        body: {
          data: { call_control_id: expect.any(String), is_alive: false, record_type: 'call' },
        },
      });
      const id = dial.body.data.call_control_id as string;
      expect(await fake.advanceCall(id, 'call.initiated')).toBe(200);
      expect(await fake.advanceCall(id, 'call.answered')).toBe(200);
      const action = `${fake.baseUrl}/v2/calls/${encodeURIComponent(id)}/actions`;
      expect((await http(`${action}/hangup`, json(auth, {}))).body).toEqual({
        data: { result: 'ok' },
      });
      expect(await fake.advanceCall(id, 'call.hangup')).toBe(200);
      expect((await http(`${action}/hangup`, json(auth, {}))).body.errors[0].code).toBe('90018');
      const events = receiver.received.map((r) => JSON.parse(r.rawBody));
      expect(events.map((e) => e.data.event_type)).toEqual([
        'call.initiated',
        'call.answered',
        'call.hangup',
      ]);
      expect(events[2]).toMatchObject({
        data: {
          record_type: 'event',
          payload: {
            call_control_id: id,
            client_state: clientState,
            connection_id: app.id,
            hangup_cause: 'normal_clearing',
            hangup_source: 'caller',
          },
        },
        meta: { attempt: 1, delivered_to: `${receiver.base}/telnyx/events?token=t` },
      });
      expect(receiver.received.every((r) => r.accepted)).toBe(true);
      expect(await fake.replayLastCallback(id)).toBe(200);
      expect(JSON.parse(receiver.received[3].rawBody).meta.attempt).toBe(2);
      expect(await fake.replayLastCallback(id, { signature: 'invalid' })).toBe(401);
      const stale = Math.floor(Date.now() / 1000) - 600;
      expect(await fake.replayLastCallback(id, { timestamp: stale })).toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it("signs with the account's own key pair when it has one, as each real account does", async () => {
    const own = fake.addAccount({ ownKeyPair: true });
    expect(account.keyPair.publicKey).toBe(fake.publicKey);
    expect(own.keyPair.publicKey).not.toBe(fake.publicKey);
    fake.addNumber(own, '+14155559876');
    const receiver = await startReceiver((r) => telnyxAccepts(own.keyPair.publicKey, r));
    try {
      const profile = [...own.outboundVoiceProfiles.values()][0];
      const app = fake.addApplication(own, {
        applicationName: 'switchboard-own-key',
        webhookEventUrl: `${receiver.base}/telnyx/events?token=t`,
        outbound: { channelLimit: null, outboundVoiceProfileId: profile.id },
      });
      const dial = await http(
        `${fake.baseUrl}/v2/calls`,
        json(`Bearer ${own.apiKey}`, {
          connection_id: app.id,
          to: '+14155550000',
          from: '+14155559876',
        }),
      );
      const id = dial.body.data.call_control_id as string;
      expect(await fake.advanceCall(id, 'call.initiated')).toBe(200);
      const signingKey = account.keyPair.privateKey;
      expect(await fake.replayLastCallback(id, { signingKey })).toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it('loses, duplicates, delays and reorders callbacks on demand; refuses connections until told', async () => {
    const receiver = await startReceiver((r) => telnyxAccepts(fake.publicKey, r));
    try {
      const profile = [...account.outboundVoiceProfiles.values()][0];
      const app = fake.addApplication(account, {
        applicationName: 'switchboard-faults',
        webhookEventUrl: `${receiver.base}/telnyx/events?token=t`,
        outbound: { channelLimit: null, outboundVoiceProfileId: profile.id },
      });
      const dial = () =>
        http(
          `${fake.baseUrl}/v2/calls`,
          json(auth, { connection_id: app.id, to: '+14155550000', from: '+14155551234' }),
        ).then((r) => r.body.data.call_control_id as string);
      const id = await dial();
      fake.loseCallbacks(1, { event: 'call.initiated' });
      fake.duplicateCallbacks(1, { event: 'call.machine.detection.ended' });
      fake.delayCallbacks(1, 50, { event: 'call.recording.saved' });
      fake.reorderCallbacks({ event: 'call.answered' }, { event: 'call.hangup' });
      expect(await fake.advanceCall(id, 'call.initiated')).toBe(0);
      expect(await fake.advanceCall(id, 'call.answered')).toBe(0);
      expect(await fake.advanceCall(id, 'call.machine.detection.ended')).toBe(200);
      expect(await fake.advanceCall(id, 'call.hangup')).toBe(200);
      expect(await fake.advanceCall(id, 'call.recording.saved')).toBe(200);
      const received = receiver.received.map((r) => JSON.parse(r.rawBody).data.event_type);
      expect(received).toEqual([
        'call.machine.detection.ended',
        'call.machine.detection.ended',
        'call.hangup',
        'call.answered',
        'call.recording.saved',
      ]);
      // The held answer keeps its own time, before the hang-up's: what a receiver orders by.
      const [answered] = receiver.received
        .map((r) => JSON.parse(r.rawBody).data)
        .filter((d) => d.event_type === 'call.answered');
      const [hangup] = fake.deliveries.filter((d) => d.event === 'call.hangup');
      expect(Date.parse(answered.occurred_at)).toBeLessThanOrEqual(
        Date.parse((hangup.payload as { data: { occurred_at: string } }).data.occurred_at),
      );
      expect(fake.deliveries.map((d) => [d.event, d.fault])).toEqual([
        ['call.initiated', 'lost'],
        ['call.machine.detection.ended', undefined],
        ['call.machine.detection.ended', 'duplicate'],
        ['call.hangup', undefined],
        ['call.answered', 'reordered'],
        ['call.recording.saved', 'delayed'],
      ]);

      await fake.refuseConnections();
      // A new connection (fetch's pool may still hold one the fake just closed).
      const refused = await new Promise<string | undefined>((resolve) =>
        httpGet(`${fake.baseUrl}/v2/balance`, { agent: false }, () => resolve(undefined)).on(
          'error',
          (error: NodeJS.ErrnoException) => resolve(error.code),
        ),
      );
      expect(refused).toBe('ECONNREFUSED');
      await fake.acceptConnections();
      expect((await get('/v2/balance')).status).toBe(200);
    } finally {
      await receiver.close();
    }
  });

  it('blocks dialing on an app without an outbound voice profile', async () => {
    const app = fake.addApplication(account, {
      applicationName: 'no-profile',
      webhookEventUrl: 'https://x.test',
    });
    const dial = await http(
      `${fake.baseUrl}/v2/calls`,
      json(auth, { connection_id: app.id, to: '+14155550000', from: '+14155551234' }),
    );
    expect(dial.status).toBe(422);
  });
});

// ------------------------------------------------------------ sandbox

describe('fault plans (npm run sandbox -- --faults=…)', () => {
  it('parses each step and refuses unknown or incomplete ones', () => {
    expect(
      parseFaultPlan(
        'rate-limit:3:20, fail:1:503, stall:1, refuse:2, lose:1:completed, duplicate:2, delay:1:100, reorder:in-progress:completed',
      ),
    ).toHaveLength(8);
    expect(() => parseFaultPlan('explode:1')).toThrow(/unknown fault "explode"/);
    expect(() => parseFaultPlan('fail:1')).toThrow(/a status expected/);
    expect(() => parseFaultPlan('reorder:in-progress')).toThrow(/reorder:hold:until/);
  });

  it("gives the stand-in model's steps (model-…) to the chat fake, and only those", async () => {
    const spec = 'rate-limit:1:9, model-fail:2:503, model-hang:1, model-slow:1:50, model-cut:1:10';
    expect(parseFaultPlan(spec)).toHaveLength(1);
    expect(parseModelFaults(spec)).toEqual([
      { fault: { kind: 'status', status: 503 }, count: 2 },
      { fault: { kind: 'hang' }, count: 1 },
      { fault: { kind: 'latency', ms: 50 }, count: 1 },
      { fault: { kind: 'cut', afterBytes: 10 }, count: 1 },
    ]);
    expect(() => parseModelFaults('model-fail:1')).toThrow(/a status expected/);
    const chat = await ChatFake.start();
    try {
      for (const { fault, count } of parseModelFaults('model-fail:1:503'))
        chat.faults.next(fault, count);
      const ask = () =>
        fetch(`${chat.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages: [] }),
        });
      expect((await ask()).status).toBe(503);
      expect((await ask()).status).toBe(200);
    } finally {
      await chat.stop();
    }
  });

  it("applies placement faults to the fakes' call creation only", async () => {
    const fake = await TwilioFake.start();
    try {
      const account = fake.addAccount();
      fake.addNumber(account, '+14155551234');
      applyFaultPlan([fake], parseFaultPlan('rate-limit:1:9'));
      const auth = basic(account.sid, account.authToken);
      const accountUrl = `${fake.baseUrl}/2010-04-01/Accounts/${account.sid}`;
      expect((await http(`${accountUrl}.json`, { headers: { authorization: auth } })).status).toBe(
        200,
      );
      const body = new URLSearchParams({
        To: '+14155550000',
        From: '+14155551234',
        Url: 'https://x.test/answer',
      });
      const throttled = await http(`${accountUrl}/Calls.json`, form(auth, body));
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('9');
      expect((await http(`${accountUrl}/Calls.json`, form(auth, body))).status).toBe(201);
    } finally {
      await fake.close();
    }
  });
});

describe('startProviderFakes', () => {
  it('starts all three with a demo account and number each', async () => {
    const sandbox = await startProviderFakes();
    try {
      const { plivo, twilio, telnyx } = sandbox;
      const p = await http(
        `${sandbox.env.PROVIDER_ONE_API_URL}/v1/Account/${plivo.authId}/Number/${plivo.number.slice(1)}/`,
        {
          headers: { authorization: basic(plivo.authId, plivo.authToken) },
        },
      );
      expect(p.status).toBe(200);
      const t = await http(
        `${sandbox.env.PROVIDER_TWO_API_URL}/2010-04-01/Accounts/${twilio.accountSid}.json`,
        {
          headers: { authorization: basic(twilio.accountSid, twilio.authToken) },
        },
      );
      expect(t.body.status).toBe('active');
      const x = await http(
        `${sandbox.env.PROVIDER_THREE_API_URL}/v2/phone_numbers?filter%5Bphone_number%5D=${telnyx.number.slice(1)}`,
        {
          headers: { authorization: `Bearer ${telnyx.apiKey}` },
        },
      );
      expect(x.body.data[0].phone_number).toBe(telnyx.number);
      expect(sandbox.env.PROVIDER_THREE_PUBLIC_KEY).toBe(telnyx.publicKey);
      const { messaging } = sandbox;
      const m = await http(
        `${sandbox.env.MESSAGING_API_URL}/v23.0/${messaging.businessAccountId}/phone_numbers`,
        { headers: { authorization: `Bearer ${messaging.accessToken}` } },
      );
      expect(m.body.data.map((n: { id: string }) => n.id)).toEqual([messaging.phoneNumberId]);
    } finally {
      await sandbox.close();
    }
  });
});
