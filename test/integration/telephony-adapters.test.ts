import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type AppConfig } from '../../src/config';
import { ProviderError } from '../../src/modules/telephony/provider-error';
import type { ProviderHttpOptions } from '../../src/modules/telephony/provider-http';
import { PlivoProvider } from '../../src/modules/telephony/providers/plivo.provider';
import { TelnyxProvider } from '../../src/modules/telephony/providers/telnyx.provider';
import { TwilioProvider } from '../../src/modules/telephony/providers/twilio.provider';
import type {
  CallbackUrls,
  InboundCallback,
  Integration,
  ProviderCredentials,
  TelephonyProvider,
  TransferTarget,
} from '../../src/modules/telephony/telephony.types';
import {
  PlivoFake,
  TelnyxFake,
  TwilioFake,
  generateEd25519KeyPair,
  type HttpFake,
  type PlivoAccount,
  type TelnyxAccount,
  type TwilioAccount,
} from '../fakes';
import { waitFor } from '../support/wait-for';

// The call path the dialer uses (placeCall → signed callbacks → parse, hang-up, transfer) and the
// shared HTTP client's resilience, each adapter against its provider fake over real HTTP.

// ------------------------------------------------------------ callback receiver

interface Received {
  method: string;
  /** The full URL as the fake called it, query included. */
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** Stands in for Switchboard's public callback endpoints; answer fetches get a tiny XML document. */
async function startReceiver() {
  const received: Received[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = `${base}${req.url ?? ''}`;
      received.push({
        method: req.method ?? '',
        url,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      });
      if (new URL(url).pathname.endsWith('/answer')) {
        const verb = url.includes('/provider_two/') ? 'Say' : 'Speak';
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?><Response><${verb}>Hi</${verb}></Response>`);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  await listen(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, close: () => closeServer(server) };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port that was just bound and released: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

function toCallback(r: Received): InboundCallback {
  const headers: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(r.headers))
    headers[key] = Array.isArray(value) ? value.join(', ') : value;
  if (r.method !== 'GET' && r.method !== 'POST') throw new Error(`unexpected ${r.method}`);
  return { method: r.method, url: r.url, headers, rawBody: r.rawBody };
}

// ------------------------------------------------------------ shared set-up

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const newToken = () => randomBytes(32).toString('base64url');
let sequence = 2000;
const nextNumber = () => `+1415555${(sequence += 1)}`;
const CALLEE = '+14155559876';

function makeConfig(env: Record<string, string | undefined>): AppConfig {
  return loadConfig({
    DATABASE_URL: 'postgres://switchboard:switchboard@127.0.0.1:5432/switchboard',
    JWT_SECRET: 'telephony-adapters-test-secret-0123456789',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
}

/** A sleep that returns at once and remembers what it was asked to wait. */
function recordingSleep() {
  const sleeps: number[] = [];
  const options: ProviderHttpOptions = {
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  };
  return { sleeps, options };
}

/** The rejection of `promise`, or a failure when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<ProviderError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ProviderError))
    throw new Error(`expected a ProviderError, got ${String(outcome)}`);
  return outcome;
}

/** Everything an error could leak through: message, stack and own properties. */
const errorText = (error: ProviderError) =>
  `${error.message}\n${error.stack ?? ''}\n${JSON.stringify({ ...error })}`;

/** The same form with one parameter's value changed (order kept). */
function tamperForm(rawBody: string, key: string, value: string): string {
  const params = new URLSearchParams(rawBody);
  expect(params.has(key)).toBe(true);
  params.set(key, value);
  return params.toString();
}

/** A transfer to +14155550199 whose <Dial> instructions are at `instructionsUrl`. */
const transferTarget = (instructionsUrl: string): TransferTarget => ({
  to: '+14155550199',
  from: '+14155550100',
  instructionsUrl,
  eventsUrl: 'https://unused.example/status',
  clientState: 'log-1',
  ringTimeoutSeconds: 45,
});

describe('telephony adapters on the call path, against the provider fakes', () => {
  let plivo: PlivoFake;
  let twilio: TwilioFake;
  let telnyx: TelnyxFake;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let config: AppConfig;

  beforeAll(async () => {
    [plivo, twilio, telnyx, receiver] = await Promise.all([
      PlivoFake.start(),
      TwilioFake.start(),
      TelnyxFake.start(),
      startReceiver(),
    ]);
    config = makeConfig({
      PROVIDER_ONE_API_URL: plivo.baseUrl,
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      PROVIDER_THREE_API_URL: telnyx.baseUrl,
      PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
    });
  });
  afterAll(async () => {
    await Promise.all([plivo?.close(), twilio?.close(), telnyx?.close(), receiver?.close()]);
  });

  /** Fresh callback URLs on the receiver, unique to one call through their token. */
  function callbackUrls(integration: Integration) {
    const token = newToken();
    const phone = `phone-${randomBytes(6).toString('hex')}`;
    const at = (kind: string) =>
      `${receiver.base}/api/telephony/${integration}/${phone}/${kind}?token=${token}`;
    const urls: CallbackUrls = {
      answerUrl: at('answer'),
      statusUrl: at('status'),
      applicationName: `switchboard-${phone}`,
    };
    return { token, urls };
  }

  /** The callbacks that reached the receiver for one call, once there are `count` of them. */
  async function callbacksFor(token: string, count: number): Promise<InboundCallback[]> {
    const mine = () => receiver.received.filter((r) => r.url.includes(token));
    await waitFor(() => mine().length >= count, {
      what: `${count} callbacks carrying token ${token.slice(0, 6)}…`,
    });
    return mine().map(toCallback);
  }

  // ========================================================== provider_one: Plivo

  describe('provider_one (Plivo)', () => {
    let account: PlivoAccount;
    let credentials: ProviderCredentials;
    let adapter: PlivoProvider;
    let from: string;

    beforeAll(() => {
      account = plivo.addAccount();
      credentials = { accountId: account.authId, secret: account.authToken };
      from = nextNumber();
      plivo.addNumber(account, from);
      adapter = new PlivoProvider(config, recordingSleep().options);
    });

    async function place() {
      const { token, urls } = callbackUrls('provider_one');
      const { providerCallId } = await adapter.placeCall(credentials, {
        from,
        to: CALLEE,
        urls,
        ringTimeoutSeconds: 25,
      });
      return { token, urls, id: providerCallId };
    }

    it('places the call with our answer, ring and hangup URLs, as digits, with Basic auth', async () => {
      const { urls, id } = await place();
      const call = plivo.call(id);
      expect(call.requestUuid).toBe(id);
      expect(call.from).toBe(from.slice(1));
      expect(call.to).toBe(CALLEE.slice(1));
      expect(call.answerUrl).toBe(urls.answerUrl);
      expect(call.ringUrl).toBe(urls.statusUrl);
      expect(call.hangupUrl).toBe(urls.statusUrl);
      const [request] = plivo.requests.filter(
        (r) => r.method === 'POST' && r.path === `/v1/Account/${account.authId}/Call/`,
      );
      expect(request.headers.authorization).toBe(basic(account.authId, account.authToken));
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({
        from: from.slice(1),
        to: CALLEE.slice(1),
        answer_url: urls.answerUrl,
        answer_method: 'POST',
        ring_url: urls.statusUrl,
        hangup_url: urls.statusUrl,
        hangup_method: 'POST',
        ring_timeout: 25,
      });
    });

    it('verifies and parses every callback of an answered call: started, answered, completed', async () => {
      const { token, id } = await place();
      expect(await plivo.advanceCall(id, 'ringing')).toBe(200);
      expect(await plivo.advanceCall(id, 'in-progress')).toBe(200);
      expect(await plivo.advanceCall(id, 'completed')).toBe(200);
      const callbacks = await callbacksFor(token, 3);
      expect(
        callbacks.map((c) => `${c.method} ${new URL(c.url).pathname.split('/').pop()}`),
      ).toEqual(['POST status', 'POST answer', 'POST status']);

      const call = plivo.call(id);
      for (const callback of callbacks) {
        expect(adapter.verifySignature(credentials, callback)).toBe(true);
        const fields = new URLSearchParams(callback.rawBody);
        // Plivo names the call by CallUUID; the request_uuid placeCall returned comes back as
        // ALegRequestUUID (and RequestUUID), which is what links the two.
        expect(fields.get('CallUUID')).toBe(call.callUuid);
        expect(fields.get('CallUUID')).not.toBe(id);
        expect(fields.get('ALegRequestUUID')).toBe(id);
      }
      const parsed = callbacks.map((c) => adapter.parseStatusCallback(c));
      expect(parsed.map((p) => [p.event, p.providerStatus])).toEqual([
        ['call.started', 'ringing'],
        ['call.answered', 'in-progress'],
        ['call.completed', 'completed'],
      ]);
      for (const p of parsed) expect(p.providerCallId).toBe(id);
      // The live call's id, which its media stream and REST actions name it by.
      for (const p of parsed) expect(p.liveCallId).toBe(call.callUuid);
      const sentDuration = new URLSearchParams(callbacks[2].rawBody).get('Duration');
      expect(parsed[2].durationSeconds).toBe(Number(sentDuration));
      expect(parsed[2].durationSeconds).toBeGreaterThanOrEqual(1);
      expect(parsed[2].hangupCause).toBe('Normal Hangup');
    });

    it('refuses a callback with a tampered body or URL, or checked with another auth token', async () => {
      const { token, id } = await place();
      await plivo.advanceCall(id, 'completed');
      const [callback] = await callbacksFor(token, 1);
      expectFormSignatureGuards(adapter, credentials, callback, token);
    });

    it.each(['busy', 'no-answer'] as const)('maps a call ending %s to call.failed', async (end) => {
      const { token, id } = await place();
      await plivo.advanceCall(id, 'ringing');
      expect(await plivo.advanceCall(id, end)).toBe(200);
      const [ring, hangup] = await callbacksFor(token, 2);
      expect(adapter.verifySignature(credentials, hangup)).toBe(true);
      expect(adapter.parseStatusCallback(ring).event).toBe('call.started');
      expect(adapter.parseStatusCallback(hangup)).toMatchObject({
        event: 'call.failed',
        providerStatus: end,
        providerCallId: id,
        durationSeconds: 0,
      });
    });

    it('hangs up with DELETE Call/{id}/ and transfers with POST Call/{id}/ (aleg_url)', async () => {
      const { token, id } = await place();
      await plivo.advanceCall(id, 'ringing');
      await plivo.advanceCall(id, 'in-progress');
      const target = `${receiver.base}/api/telephony/provider_one/transfer?token=${token}`;
      // Its actions name the live call by its CallUUID: the request_uuid is no call of theirs.
      const { callUuid } = plivo.call(id);
      await expect(adapter.hangupCall(credentials, id)).rejects.toMatchObject({
        kind: 'not_found',
      });
      await adapter.transferCall(credentials, callUuid, transferTarget(target));
      await adapter.hangupCall(credentials, callUuid);

      const callPath = `/v1/Account/${account.authId}/Call/${callUuid}/`;
      const [transfer] = plivo.requestsTo('POST', callPath);
      expect(transfer.path).toBe(callPath);
      expect(transfer.headers.authorization).toBe(basic(account.authId, account.authToken));
      expect(transfer.body).toEqual({ legs: 'aleg', aleg_url: target, aleg_method: 'POST' });
      const [hangup] = plivo.requestsTo('DELETE', callPath);
      expect(hangup.path).toBe(callPath);
      expect(hangup.rawBody).toBe('');
      expect(plivo.call(id).transfers).toEqual([transfer.body]);
      expect(plivo.call(id).hangupRequested).toBe(true);

      await plivo.advanceCall(id, 'completed');
      const callbacks = await callbacksFor(token, 3);
      expect(adapter.parseStatusCallback(callbacks[2])).toMatchObject({
        event: 'call.completed',
        providerCallId: id,
      });
    });

    it('finds a placed call by its request_uuid: queued, then among the live calls, then in the CDRs', async () => {
      const { id } = await place();
      const call = { providerCallId: id, from, to: CALLEE, placedAt: new Date() };
      await expect(adapter.fetchCall(credentials, call)).resolves.toEqual({
        alive: true,
        status: 'queued',
        providerStatus: 'queued',
      });
      await plivo.advanceCall(id, 'ringing');
      await expect(adapter.fetchCall(credentials, call)).resolves.toEqual({
        alive: true,
        status: 'ringing',
        providerStatus: 'ringing',
      });
      await plivo.advanceCall(id, 'in-progress');
      await expect(adapter.fetchCall(credentials, call)).resolves.toEqual({
        alive: true,
        status: 'in-progress',
        providerStatus: 'in-progress',
      });
      await plivo.advanceCall(id, 'completed');
      const ended = await adapter.fetchCall(credentials, call);
      expect(ended).toMatchObject({
        alive: false,
        status: 'completed',
        providerStatus: 'Normal Hangup',
      });
      expect(ended.durationSeconds).toBeGreaterThanOrEqual(1);

      // As at Plivo, the request_uuid names the call only while it is queued: no stage of a
      // dialed call answers to it, nor to an id Plivo never gave.
      const headers = { authorization: basic(account.authId, account.authToken) };
      const callUrl = (uuid: string, query = '') =>
        `${plivo.baseUrl}/v1/Account/${account.authId}/Call/${uuid}/${query}`;
      for (const uuid of [id, randomUUID()])
        for (const query of ['', '?status=live', '?status=queued'])
          expect((await fetch(callUrl(uuid, query), { headers })).status).toBe(404);
      const { callUuid } = plivo.call(id);
      expect((await fetch(callUrl(callUuid), { headers })).status).toBe(200);
      expect((await fetch(callUrl(callUuid, '?status=live'), { headers })).status).toBe(404);

      // Another callee: nothing between these numbers at Plivo.
      const unknown = { ...call, providerCallId: randomUUID(), to: nextNumber() };
      await expect(adapter.fetchCall(credentials, unknown)).rejects.toMatchObject({
        kind: 'not_found',
      });
    });

    it('maps a call we hung up before it was answered (cause 1000) to call.failed', async () => {
      const { token, id } = await place();
      await plivo.advanceCall(id, 'ringing');
      await adapter.hangupCall(credentials, plivo.call(id).callUuid);
      await plivo.advanceCall(id, 'completed');
      const [, hangup] = await callbacksFor(token, 2);
      expect(new URLSearchParams(hangup.rawBody).get('HangupCauseCode')).toBe('1000');
      expect(adapter.parseStatusCallback(hangup)).toMatchObject({
        event: 'call.failed',
        providerStatus: 'completed',
      });
    });
  });

  // ========================================================== provider_two: Twilio

  describe('provider_two (Twilio)', () => {
    let account: TwilioAccount;
    let credentials: ProviderCredentials;
    let adapter: TwilioProvider;
    let from: string;

    beforeAll(() => {
      account = twilio.addAccount();
      credentials = { accountId: account.sid, secret: account.authToken };
      from = nextNumber();
      twilio.addNumber(account, from);
      adapter = new TwilioProvider(config, recordingSleep().options);
    });

    async function place() {
      const { token, urls } = callbackUrls('provider_two');
      const { providerCallId } = await adapter.placeCall(credentials, {
        from,
        to: CALLEE,
        urls,
        ringTimeoutSeconds: 25,
      });
      return { token, urls, id: providerCallId };
    }

    it('places the call with Url, StatusCallback and the four StatusCallbackEvents, with Basic auth', async () => {
      const { urls, id } = await place();
      expect(id).toMatch(/^CA[0-9a-f]{32}$/);
      const call = twilio.call(id);
      expect(call).toMatchObject({
        from,
        to: CALLEE,
        url: urls.answerUrl,
        method: 'POST',
        statusCallback: urls.statusUrl,
        statusCallbackMethod: 'POST',
        statusCallbackEvents: ['initiated', 'ringing', 'answered', 'completed'],
      });
      const [request] = twilio.requestsTo('POST', `/Accounts/${account.sid}/Calls.json`);
      expect(request.headers.authorization).toBe(basic(account.sid, account.authToken));
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(request.body).toEqual({
        To: CALLEE,
        From: from,
        Url: urls.answerUrl,
        Method: 'POST',
        StatusCallback: urls.statusUrl,
        StatusCallbackMethod: 'POST',
        StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
        Timeout: '25',
      });
    });

    it('verifies and parses every callback of an answered call: started, answered, completed', async () => {
      const { token, id } = await place();
      for (const status of ['initiated', 'ringing', 'in-progress', 'completed'] as const)
        expect(await twilio.advanceCall(id, status)).toBe(200);
      // in-progress fetches the Url (TwiML) and then posts the answered status callback.
      const callbacks = await callbacksFor(token, 5);
      expect(callbacks.map((c) => new URL(c.url).pathname.split('/').pop())).toEqual([
        'status',
        'status',
        'answer',
        'status',
        'status',
      ]);
      for (const callback of callbacks) {
        expect(callback.method).toBe('POST');
        expect(adapter.verifySignature(credentials, callback)).toBe(true);
      }
      const parsed = callbacks.map((c) => adapter.parseStatusCallback(c));
      expect(parsed.map((p) => [p.event, p.providerStatus])).toEqual([
        ['call.started', 'initiated'],
        ['call.started', 'ringing'],
        ['call.answered', 'in-progress'],
        ['call.answered', 'in-progress'],
        ['call.completed', 'completed'],
      ]);
      for (const p of parsed) expect(p.providerCallId).toBe(id);
      const sentDuration = new URLSearchParams(callbacks[4].rawBody).get('CallDuration');
      expect(parsed[4].durationSeconds).toBe(Number(sentDuration));
      expect(parsed[4].durationSeconds).toBeGreaterThanOrEqual(1);
      expect(parsed[1].durationSeconds).toBeUndefined();
    });

    it('refuses a callback with a tampered body or URL, or checked with another auth token', async () => {
      const { token, id } = await place();
      await twilio.advanceCall(id, 'completed');
      const [callback] = await callbacksFor(token, 1);
      expectFormSignatureGuards(adapter, credentials, callback, token);
    });

    it.each(['busy', 'no-answer'] as const)('maps a call ending %s to call.failed', async (end) => {
      const { token, id } = await place();
      await twilio.advanceCall(id, 'ringing');
      expect(await twilio.advanceCall(id, end)).toBe(200);
      const [ring, final] = await callbacksFor(token, 2);
      expect(adapter.verifySignature(credentials, final)).toBe(true);
      expect(adapter.parseStatusCallback(ring).event).toBe('call.started');
      expect(adapter.parseStatusCallback(final)).toMatchObject({
        event: 'call.failed',
        providerStatus: end,
        providerCallId: id,
        durationSeconds: 0,
      });
    });

    it('hangs up with Status=completed and transfers with Url on POST Calls/{sid}.json', async () => {
      const { token, id } = await place();
      await twilio.advanceCall(id, 'ringing');
      await twilio.advanceCall(id, 'in-progress');
      const target = `${receiver.base}/api/telephony/provider_two/transfer?token=${token}`;
      await adapter.transferCall(credentials, id, transferTarget(target));
      await adapter.hangupCall(credentials, id);

      const callPath = `/2010-04-01/Accounts/${account.sid}/Calls/${id}.json`;
      const updates = twilio.requestsTo('POST', callPath);
      expect(updates.map((r) => r.path)).toEqual([callPath, callPath]);
      for (const r of updates)
        expect(r.headers.authorization).toBe(basic(account.sid, account.authToken));
      expect(updates.map((r) => r.body)).toEqual([
        { Url: target, Method: 'POST' },
        { Status: 'completed' },
      ]);
      expect(twilio.call(id).redirects).toEqual([{ Url: target, Method: 'POST' }]);
      expect(twilio.call(id).hangupRequested).toBe(true);

      await twilio.advanceCall(id, 'completed');
      const callbacks = await callbacksFor(token, 4);
      expect(adapter.parseStatusCallback(callbacks[3])).toMatchObject({
        event: 'call.completed',
        providerCallId: id,
      });
    });
  });

  // ========================================================== provider_three: Telnyx

  describe('provider_three (Telnyx)', () => {
    let account: TelnyxAccount;
    let credentials: ProviderCredentials;
    let adapter: TelnyxProvider;
    let appId: string;

    beforeAll(() => {
      account = telnyx.addAccount();
      const [profileId] = account.outboundVoiceProfiles.keys();
      appId = telnyx.addApplication(account, {
        applicationName: 'switchboard-telnyx-test',
        webhookEventUrl: `${receiver.base}/api/telephony/provider_three/app/status`,
        outbound: { channelLimit: null, outboundVoiceProfileId: profileId },
      }).id;
      // Telnyx credentials: the app id (Call Control Application) and the API key.
      credentials = { accountId: appId, secret: account.apiKey };
      adapter = new TelnyxProvider(config, recordingSleep().options);
    });

    async function place(clientState = `call-${randomBytes(4).toString('hex')}`) {
      const { token, urls } = callbackUrls('provider_three');
      const { providerCallId } = await adapter.placeCall(credentials, {
        from: '+14155550103',
        to: CALLEE,
        urls,
        appId,
        clientState,
        ringTimeoutSeconds: 25,
      });
      return { token, urls, id: providerCallId, clientState };
    }

    it('dials with connection_id = app id, our webhook_url, base64 client_state and Bearer auth', async () => {
      const { urls, id, clientState } = await place('call-42');
      expect(id).toMatch(/^v3:/);
      const encoded = Buffer.from(clientState).toString('base64');
      expect(telnyx.call(id)).toMatchObject({
        connectionId: appId,
        from: '+14155550103',
        to: CALLEE,
        webhookUrl: urls.statusUrl,
        clientState: encoded,
      });
      const [request] = telnyx.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v2/calls',
      );
      expect(request.headers.authorization).toBe(`Bearer ${account.apiKey}`);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({
        connection_id: appId,
        to: CALLEE,
        from: '+14155550103',
        webhook_url: urls.statusUrl,
        client_state: encoded,
        timeout_secs: 25,
      });
    });

    it('verifies and parses every webhook of an answered call: started, answered, completed', async () => {
      const { token, id, clientState } = await place();
      for (const event of ['call.initiated', 'call.answered', 'call.hangup'] as const)
        expect(await telnyx.advanceCall(id, event)).toBe(200);
      const callbacks = await callbacksFor(token, 3);
      for (const callback of callbacks) {
        expect(callback.method).toBe('POST');
        expect(callback.url).toContain('/status?token=');
        expect(adapter.verifySignature(credentials, callback)).toBe(true);
      }
      const parsed = callbacks.map((c) => adapter.parseStatusCallback(c));
      expect(parsed.map((p) => [p.event, p.providerStatus])).toEqual([
        ['call.started', 'call.initiated'],
        ['call.answered', 'call.answered'],
        ['call.completed', 'call.hangup'],
      ]);
      for (const p of parsed) {
        expect(p.providerCallId).toBe(id);
        expect(p.clientState).toBe(clientState);
        // Telnyx sends no duration on call.hangup; it has to be computed from the events.
        expect(p.durationSeconds).toBeUndefined();
      }
      expect(parsed[2].hangupCause).toBe('normal_clearing');
    });

    it('refuses a tampered body, a stale timestamp or another key; the URL and credentials are not signed', async () => {
      const { token, id } = await place();
      await telnyx.advanceCall(id, 'call.initiated');
      const [callback] = await callbacksFor(token, 1);
      expect(adapter.verifySignature(credentials, callback)).toBe(true);

      const document = JSON.parse(callback.rawBody) as { data: { event_type: string } };
      document.data.event_type = 'call.hangup';
      const forged = JSON.stringify(document);
      expect(adapter.verifySignature(credentials, { ...callback, rawBody: forged })).toBe(false);
      const later = String(Number(callback.headers['telnyx-timestamp']) + 1);
      const retimed = { ...callback.headers, 'telnyx-timestamp': later };
      expect(adapter.verifySignature(credentials, { ...callback, headers: retimed })).toBe(false);

      // A webhook validly signed, but for a timestamp ten minutes old.
      const stale = Math.floor(Date.now() / 1000) - 600;
      expect(await telnyx.replayLastCallback(id, { timestamp: stale })).toBe(200);
      const [, replayed] = await callbacksFor(token, 2);
      expect(replayed.headers['telnyx-timestamp']).toBe(String(stale));
      expect(adapter.verifySignature(credentials, replayed)).toBe(false);

      // The key is the number's own (credentials.publicKey), else PROVIDER_THREE_PUBLIC_KEY.
      const otherKey = makeConfig({
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
        PROVIDER_THREE_PUBLIC_KEY: generateEd25519KeyPair().publicKey,
      });
      expect(new TelnyxProvider(otherKey).verifySignature(credentials, callback)).toBe(false);
      const ownKey = { ...credentials, publicKey: telnyx.publicKey };
      expect(new TelnyxProvider(otherKey).verifySignature(ownKey, callback)).toBe(true);
      const otherOwnKey = { ...credentials, publicKey: generateEd25519KeyPair().publicKey };
      expect(adapter.verifySignature(otherOwnKey, callback)).toBe(false);
      const wrongSecret = { ...credentials, secret: `${credentials.secret}x` };
      expect(adapter.verifySignature(wrongSecret, callback)).toBe(true);
      // Telnyx signs `timestamp|body` only: the URL token has to be checked by the receiver.
      const otherUrl = callback.url.replace(token, newToken());
      expect(adapter.verifySignature(credentials, { ...callback, url: otherUrl })).toBe(true);
      const unsigned = { ...callback, headers: { 'content-type': 'application/json' } };
      expect(adapter.verifySignature(credentials, unsigned)).toBe(false);
    });

    it('without PROVIDER_THREE_PUBLIC_KEY: refuses every webhook of a number without its own key on a server, trusts the URL token only in embedded mode', async () => {
      const { token, id } = await place();
      await telnyx.advanceCall(id, 'call.initiated');
      const [callback] = await callbacksFor(token, 1);
      const unsigned = { ...callback, headers: { 'content-type': 'application/json' } };
      // DATABASE_URL set: not embedded, whatever NODE_ENV says.
      for (const NODE_ENV of ['development', 'test', 'production']) {
        const server = new TelnyxProvider(
          makeConfig({ PROVIDER_THREE_API_URL: telnyx.baseUrl, NODE_ENV }),
        );
        expect(server.verifySignature(credentials, callback)).toBe(false);
        expect(server.verifySignature(credentials, unsigned)).toBe(false);
      }
      const embedded = new TelnyxProvider({
        ...config,
        telephony: {
          ...config.telephony,
          providerThreePublicKey: undefined,
          providerThreeKeyRequired: false,
        },
      });
      expect(embedded.verifySignature(credentials, unsigned)).toBe(true);
      // A number's own key verifies on a server without one, even in embedded mode.
      const server = new TelnyxProvider(makeConfig({ PROVIDER_THREE_API_URL: telnyx.baseUrl }));
      const ownKey = { ...credentials, publicKey: telnyx.publicKey };
      expect(server.verifySignature(ownKey, callback)).toBe(true);
      expect(server.verifySignature(ownKey, unsigned)).toBe(false);
      expect(embedded.verifySignature(ownKey, unsigned)).toBe(false);
    });

    it.each([
      ['busy', { hangup_cause: 'user_busy' }],
      ['no-answer', {}],
    ] as const)('maps a call ending %s to call.failed', async (_end, extra) => {
      const { token, id, clientState } = await place();
      await telnyx.advanceCall(id, 'call.initiated');
      expect(await telnyx.advanceCall(id, 'call.hangup', { ...extra })).toBe(200);
      const [initiated, hangup] = await callbacksFor(token, 2);
      expect(adapter.verifySignature(credentials, hangup)).toBe(true);
      expect(adapter.parseStatusCallback(initiated).event).toBe('call.started');
      const expectedCause = 'hangup_cause' in extra ? extra.hangup_cause : 'no_answer';
      expect(adapter.parseStatusCallback(hangup)).toMatchObject({
        event: 'call.failed',
        providerStatus: 'call.hangup',
        providerCallId: id,
        hangupCause: expectedCause,
        clientState,
      });
    });

    it('hangs up and transfers with POST /v2/calls/{id}/actions/hangup|transfer', async () => {
      const { token, id } = await place();
      await telnyx.advanceCall(id, 'call.initiated');
      await telnyx.advanceCall(id, 'call.answered');
      const target = `${receiver.base}/api/telephony/provider_three/status?token=${token}`;
      // Telnyx dials `to` itself; the new leg's events go to the call's status URL.
      await adapter.transferCall(credentials, id, {
        ...transferTarget('https://unused.example/transfer'),
        eventsUrl: target,
      });
      await adapter.hangupCall(credentials, id);

      const actions = `/v2/calls/${encodeURIComponent(id)}/actions/`;
      const [transfer] = telnyx.requestsTo('POST', `${actions}transfer`);
      const [hangup] = telnyx.requestsTo('POST', `${actions}hangup`);
      expect(transfer.path).toBe(`${actions}transfer`);
      expect(hangup.path).toBe(`${actions}hangup`);
      for (const r of [transfer, hangup])
        expect(r.headers.authorization).toBe(`Bearer ${account.apiKey}`);
      expect(transfer.body).toEqual({
        to: '+14155550199',
        from: '+14155550100',
        webhook_url: target,
        webhook_url_method: 'POST',
        client_state: Buffer.from('log-1').toString('base64'),
        command_id: 'log-1-transfer',
        // Telnyx gives up on the new leg when CallTransfers stops waiting for it.
        timeout_secs: 45,
      });
      expect(hangup.body).toEqual({});
      expect(telnyx.call(id).actions.map((a) => a.action)).toEqual(['transfer', 'hangup']);
      // Telnyx rings a leg 5 to 600 s.
      const tooLong = { ...transferTarget('https://unused.example/t'), ringTimeoutSeconds: 601 };
      await expect(adapter.transferCall(credentials, id, tooLong)).rejects.toMatchObject({
        kind: 'invalid_request',
      });

      await telnyx.advanceCall(id, 'call.hangup');
      const callbacks = await callbacksFor(token, 3);
      expect(adapter.parseStatusCallback(callbacks[2])).toMatchObject({
        event: 'call.completed',
        providerCallId: id,
      });
    });
  });

  // ========================================================== shared HTTP client resilience

  describe('provider HTTP client resilience', () => {
    interface ResilienceCase {
      integration: Integration;
      fake: () => HttpFake;
      /** An adapter on `config` (default: the fakes' config) with a recording sleep. */
      adapter: (options: ProviderHttpOptions, on?: AppConfig) => TelephonyProvider;
      seed: () => {
        credentials: ProviderCredentials;
        place: () => Parameters<TelephonyProvider['placeCall']>[1];
      };
      /** Path of the credentials check and of the call creation, as the fake records them. */
      validatePath: (credentials: ProviderCredentials) => string;
      placePath: (credentials: ProviderCredentials) => string;
      /** What the provider answers to a bad secret, as the adapter must surface it. */
      authMessage: string;
    }

    const cases: ResilienceCase[] = [
      {
        integration: 'provider_one',
        fake: () => plivo,
        adapter: (options, on = config) => new PlivoProvider(on, options),
        seed: () => {
          const account = plivo.addAccount();
          const from = nextNumber();
          plivo.addNumber(account, from);
          return {
            credentials: { accountId: account.authId, secret: account.authToken },
            place: () => ({ from, to: CALLEE, urls: callbackUrls('provider_one').urls }),
          };
        },
        validatePath: (c) => `/v1/Account/${c.accountId}/`,
        placePath: (c) => `/v1/Account/${c.accountId}/Call/`,
        authMessage: 'Plivo answered 401: authentication failed',
      },
      {
        integration: 'provider_two',
        fake: () => twilio,
        adapter: (options, on = config) => new TwilioProvider(on, options),
        seed: () => {
          const account = twilio.addAccount();
          const from = nextNumber();
          twilio.addNumber(account, from);
          return {
            credentials: { accountId: account.sid, secret: account.authToken },
            place: () => ({ from, to: CALLEE, urls: callbackUrls('provider_two').urls }),
          };
        },
        validatePath: (c) => `/2010-04-01/Accounts/${c.accountId}.json`,
        placePath: (c) => `/2010-04-01/Accounts/${c.accountId}/Calls.json`,
        authMessage: 'Twilio answered 401: Authenticate',
      },
      {
        integration: 'provider_three',
        fake: () => telnyx,
        adapter: (options, on = config) => new TelnyxProvider(on, options),
        seed: () => {
          const account = telnyx.addAccount();
          const [profileId] = account.outboundVoiceProfiles.keys();
          const app = telnyx.addApplication(account, {
            applicationName: `switchboard-${randomBytes(4).toString('hex')}`,
            webhookEventUrl: `${receiver.base}/api/telephony/provider_three/app/status`,
            outbound: { channelLimit: null, outboundVoiceProfileId: profileId },
          });
          return {
            credentials: { accountId: app.id, secret: account.apiKey },
            place: () => ({
              from: '+14155550103',
              to: CALLEE,
              urls: callbackUrls('provider_three').urls,
              appId: app.id,
            }),
          };
        },
        validatePath: () => '/v2/balance',
        placePath: () => '/v2/calls',
        authMessage:
          'Telnyx answered 401: Authentication failed: The required authentication headers were either invalid or not included in the request.',
      },
    ];

    /** Requests the fake saw with this method and exactly this path (query aside). */
    const seen = (fake: HttpFake, method: string, path: string) =>
      fake.requests.filter((r) => r.method === method && r.path === path);

    describe.each(cases)('$integration', (c) => {
      it.each([0, 1])(
        'validateCredentials succeeds after one 429 with a %is Retry-After, waiting that long',
        async (seconds) => {
          const { credentials } = c.seed();
          const { sleeps, options } = recordingSleep();
          const path = c.validatePath(credentials);
          const readsBefore = seen(c.fake(), 'GET', path).length;
          c.fake().rateLimitNext(1, seconds, { method: 'GET', path });
          await c.adapter(options).validateCredentials(credentials);
          expect(seen(c.fake(), 'GET', path)).toHaveLength(readsBefore + 2);
          expect(sleeps).toEqual([seconds * 1000]);
        },
      );

      it.each([
        [429, 'rate_limited'],
        [500, 'upstream'],
      ] as const)('placeCall is not retried after a %i (%s)', async (status, kind) => {
        const { credentials, place } = c.seed();
        const { sleeps, options } = recordingSleep();
        const path = c.placePath(credentials);
        const callsBefore = seen(c.fake(), 'POST', path).length;
        if (status === 429) c.fake().rateLimitNext(1, 0, { method: 'POST', path });
        else c.fake().failNext(1, status, { method: 'POST', path });
        const error = await rejectionOf(c.adapter(options).placeCall(credentials, place()));
        expect(error.kind).toBe(kind);
        expect(error.httpStatus).toBe(status);
        expect(seen(c.fake(), 'POST', path)).toHaveLength(callsBefore + 1);
        expect(sleeps).toEqual([]);
        // The fault is used up: the next placeCall reaches the provider and dials.
        await expect(c.adapter(options).placeCall(credentials, place())).resolves.toEqual({
          providerCallId: expect.any(String),
        });
      });

      it('a body that never ends fails the read as soon as it passes 1 MiB, not at the timeout', async () => {
        const { credentials } = c.seed();
        const path = c.validatePath(credentials);
        const readsBefore = seen(c.fake(), 'GET', path).length;
        c.fake().floodNext(1, { method: 'GET', path });
        const started = performance.now();
        const error = await rejectionOf(
          c
            .adapter({ ...recordingSleep().options, timeoutMs: 30_000 })
            .validateCredentials(credentials),
        );
        const elapsedMs = performance.now() - started;
        expect(error.kind).toBe('upstream');
        expect(error.message).toMatch(/answered 200 with a body over 1048576 bytes$/);
        // Not retried: another attempt would only read another megabyte of the same.
        expect(seen(c.fake(), 'GET', path)).toHaveLength(readsBefore + 1);
        const flood = c.fake().floods.at(-1)!;
        let closed = false;
        void flood.closed.then(() => (closed = true));
        await waitFor(() => closed, { what: 'the client to hang up on the endless body' });
        // What the client could have buffered: the limit plus what sat in socket buffers.
        expect(flood.bytesSent).toBeLessThan(8 * 1024 * 1024);
        expect(elapsedMs).toBeLessThan(5_000);
      });

      it('a base URL on a closed port gives ProviderError unreachable', async () => {
        const { credentials, place } = c.seed();
        const port = await closedPort();
        const dead = makeConfig({
          PROVIDER_ONE_API_URL: `http://127.0.0.1:${port}`,
          PROVIDER_TWO_API_URL: `http://127.0.0.1:${port}`,
          PROVIDER_THREE_API_URL: `http://127.0.0.1:${port}`,
          PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
        });
        const reads = recordingSleep();
        const readError = await rejectionOf(
          c.adapter(reads.options, dead).validateCredentials(credentials),
        );
        expect(readError.kind).toBe('unreachable');
        expect(readError.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
        // A read backs off between its three attempts.
        expect(reads.sleeps).toHaveLength(2);

        const calls = recordingSleep();
        const callError = await rejectionOf(
          c.adapter(calls.options, dead).placeCall(credentials, place()),
        );
        expect(callError.kind).toBe('unreachable');
        expect(calls.sleeps).toEqual([]);
      });

      it("surfaces the provider's error message, never the secret", async () => {
        const { credentials } = c.seed();
        const wrong = { ...credentials, secret: `${credentials.secret.slice(0, -4)}zzzz` };
        const error = await rejectionOf(
          c.adapter(recordingSleep().options).validateCredentials(wrong),
        );
        expect(error.kind).toBe('auth');
        expect(error.httpStatus).toBe(401);
        expect(error.message).toBe(c.authMessage);
        expect(errorText(error)).not.toContain(wrong.secret);
        expect(errorText(error)).not.toContain(credentials.secret);
        expect(errorText(error)).not.toContain(Buffer.from(wrong.secret).toString('base64'));
      });
    });

    it("surfaces Twilio's own text for a refused call (21210), without the auth token", async () => {
      const account = twilio.addAccount();
      const credentials = { accountId: account.sid, secret: account.authToken };
      const error = await rejectionOf(
        new TwilioProvider(config, recordingSleep().options).placeCall(credentials, {
          from: '+14155550000',
          to: CALLEE,
          urls: callbackUrls('provider_two').urls,
        }),
      );
      expect(error.kind).toBe('invalid_request');
      expect(error.httpStatus).toBe(400);
      expect(error.message).toMatch(
        /^Twilio answered 400: The source phone number provided, \+14155550000, is not yet verified/,
      );
      expect(errorText(error)).not.toContain(account.authToken);
    });

    it("surfaces Telnyx's error title and detail for a dial without connection_id", async () => {
      const account = telnyx.addAccount();
      const error = await rejectionOf(
        new TelnyxProvider(config, recordingSleep().options).placeCall(
          { accountId: '', secret: account.apiKey },
          { from: '+14155550103', to: CALLEE, urls: callbackUrls('provider_three').urls },
        ),
      );
      expect(error.kind).toBe('invalid_request');
      expect(error.httpStatus).toBe(422);
      expect(error.message).toBe(
        "Telnyx answered 422: Missing required parameter: The 'connection_id' parameter is required.",
      );
      expect(errorText(error)).not.toContain(account.apiKey);
    });
  });
});

/** A form callback verifies as sent, and not once its body, URL token, secret or headers change. */
function expectFormSignatureGuards(
  adapter: TelephonyProvider,
  credentials: ProviderCredentials,
  callback: InboundCallback,
  token: string,
): void {
  expect(adapter.verifySignature(credentials, callback)).toBe(true);
  const forged = tamperForm(callback.rawBody, 'CallStatus', 'busy');
  expect(adapter.verifySignature(credentials, { ...callback, rawBody: forged })).toBe(false);
  const otherUrl = callback.url.replace(token, newToken());
  expect(adapter.verifySignature(credentials, { ...callback, url: otherUrl })).toBe(false);
  const wrongSecret = { ...credentials, secret: `${credentials.secret}x` };
  expect(adapter.verifySignature(wrongSecret, callback)).toBe(false);
  const unsigned = {
    ...callback,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
  expect(adapter.verifySignature(credentials, unsigned)).toBe(false);
}
