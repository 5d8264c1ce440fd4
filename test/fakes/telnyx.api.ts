import { randomBytes, randomUUID } from 'node:crypto';
import {
  field,
  isHttpUrl,
  type FakeResponse,
  type RecordedRequest,
  type RouteContext,
  type RouteHandler,
  type RouteRegistrar,
} from './http-fake';
import {
  TELNYX_ERRORS as E,
  createApplication,
  serializeApplication,
  serializeNumber,
  serializeProfile,
  telnyxError,
  telnyxErrorFor,
  telnyxPage,
  type TelnyxAccount,
  type TelnyxApplication,
  type TelnyxCall,
  type TelnyxState,
} from './telnyx.model';

type Json = Record<string, unknown>;
type Handler = (ctx: RouteContext, account: TelnyxAccount) => FakeResponse;

const E164 = /^\+[1-9]\d{6,14}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ACTIONS = new Set([
  ...['answer', 'bridge', 'enqueue', 'gather_using_audio', 'gather_using_speak', 'hangup'],
  ...['leave_queue', 'playback_start', 'playback_stop', 'record_start', 'record_stop', 'refer'],
  ...['reject', 'send_dtmf', 'speak', 'streaming_start', 'streaming_stop', 'transfer'],
]);
const APPS = '/v2/call_control_applications';

const str = (body: Json, key: string): string | undefined =>
  typeof body[key] === 'string' ? body[key] : undefined;
const obj = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
// Lists come newest first, Telnyx's default sort (created_at descending).
const newestFirst = <T>(items: Iterable<T>): T[] => [...items].reverse();

/** The JSON object body, or the error Telnyx answers (it reads JSON only). */
function json(req: RecordedRequest): { body: Json } | { error: FakeResponse } {
  if (req.rawBody.trim() === '') return { body: {} };
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    return { error: telnyxErrorFor(415) };
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
    return { error: telnyxError(400, '10023', 'Invalid JSON', 'The supplied JSON is invalid.') };
  return { body: req.body as Json };
}

// `timeout_secs` of a dial or transfer: how long the leg rings, 5 to 600 s (30 by default).
const validTimeout = (value: unknown): boolean =>
  value === undefined || (Number.isInteger(value) && Number(value) >= 5 && Number(value) <= 600);
const badTimeout = () =>
  E.badRequest('timeout_secs must be an integer between 5 and 600.', '/timeout_secs', 422);

/** Telnyx API v2 under `/v2`: Bearer API key, JSON both ways, `{data, meta}` lists. */
export function registerTelnyxApi(route: RouteRegistrar, state: TelnyxState): void {
  const authed =
    (handler: Handler): RouteHandler =>
    (ctx) => {
      const match = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
      const account = match ? state.accounts.get(match[1]) : undefined;
      return account ? handler(ctx, account) : telnyxErrorFor(401);
    };
  // Handlers that read a body get it parsed, or the JSON error answered for them.
  const withBody =
    (handler: (ctx: RouteContext, a: TelnyxAccount, body: Json) => FakeResponse): Handler =>
    (ctx, a) => {
      const parsed = json(ctx.req);
      return 'error' in parsed ? parsed.error : handler(ctx, a, parsed.body);
    };
  route('GET', '/v2/balance', authed(balance));
  route('GET', '/v2/phone_numbers', authed(listNumbers));
  route('GET', '/v2/phone_numbers/:id', authed(getNumber));
  route('PATCH', '/v2/phone_numbers/:id', authed(withBody(patchNumber)));
  route('GET', APPS, authed(listApps));
  route('POST', APPS, authed(withBody(createApp)));
  route('GET', `${APPS}/:id`, authed(getApp));
  route('PATCH', `${APPS}/:id`, authed(withBody(patchApp)));
  route('DELETE', `${APPS}/:id`, authed(deleteApp));
  route('GET', '/v2/outbound_voice_profiles', authed(listProfiles));
  route('POST', '/v2/calls', authed(withBody((ctx, a, body) => dial(a, body, state))));
  route('GET', '/v2/calls/:id', authed(getCall(state)));
  route(
    'POST',
    '/v2/calls/:id/actions/:action',
    authed(withBody((ctx, a, body) => action(ctx, a, body, state))),
  );
}

function paging(ctx: RouteContext): { number: number; size: number } | undefined {
  const number = Number(field(ctx.req.query, 'page[number]') ?? 1);
  const size = Number(field(ctx.req.query, 'page[size]') ?? 20);
  if (!Number.isInteger(number) || number < 1) return undefined;
  if (!Number.isInteger(size) || size < 1 || size > 250) return undefined;
  return { number, size };
}

const BAD_PAGE = 'Invalid page[number] or page[size].';

function balance(_ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const data = {
    record_type: 'balance',
    balance: a.balance,
    credit_limit: '100.00',
    available_credit: (Number(a.balance) + 100).toFixed(2),
    pending: '0.00',
    currency: 'USD',
  };
  return { status: 200, body: { data } };
}

const connectionName = (a: TelnyxAccount, id: string | null): string | null =>
  id === null ? null : (a.applications.get(id)?.applicationName ?? null);

function listNumbers(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const page = paging(ctx);
  if (!page) return E.badRequest(BAD_PAGE);
  const q = ctx.req.query;
  const phone = field(q, 'filter[phone_number]');
  if (phone !== undefined && /^\d{0,2}$/.test(phone))
    return E.badRequest('filter[phone_number] requires at least three digits.');
  const status = field(q, 'filter[status]');
  const connection = field(q, 'filter[connection_id]');
  const tag = field(q, 'filter[tag]');
  const numbers = newestFirst(a.numbers.values()).filter(
    (n) =>
      // Non-digits in the filter match nothing, exactly as at Telnyx (so `+` must be stripped).
      (phone === undefined || (/^\d+$/.test(phone) && n.phoneNumber.slice(1).includes(phone))) &&
      (status === undefined || n.status === status) &&
      (connection === undefined || n.connectionId === connection) &&
      (tag === undefined || n.tags.includes(tag)),
  );
  const data = numbers.map((n) => serializeNumber(n, connectionName(a, n.connectionId)));
  return { status: 200, body: telnyxPage(data, page.number, page.size) };
}

function getNumber(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const n = a.numbers.get(ctx.params.id);
  if (!n) return telnyxErrorFor(404);
  return { status: 200, body: { data: serializeNumber(n, connectionName(a, n.connectionId)) } };
}

function patchNumber(ctx: RouteContext, a: TelnyxAccount, body: Json): FakeResponse {
  const n = a.numbers.get(ctx.params.id);
  if (!n) return telnyxErrorFor(404);
  if ('connection_id' in body) {
    const id = body.connection_id;
    if (id !== null && typeof id !== 'string') return E.notString('/connection_id');
    if (id && !a.applications.has(id)) return E.noSuchAssociation('/connection_id');
    n.connectionId = id ? id : null;
  }
  if (Array.isArray(body.tags)) n.tags = body.tags.map(String);
  n.updatedAt = new Date();
  return { status: 200, body: { data: serializeNumber(n, connectionName(a, n.connectionId)) } };
}

function listApps(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const page = paging(ctx);
  if (!page) return E.badRequest(BAD_PAGE);
  const contains = field(ctx.req.query, 'filter[application_name][contains]')?.toLowerCase();
  if (contains !== undefined && contains.length < 3)
    return E.badRequest('filter[application_name][contains] requires at least three characters.');
  const profile = field(ctx.req.query, 'filter[outbound.outbound_voice_profile_id]');
  const apps = newestFirst(a.applications.values()).filter(
    (app) =>
      (contains === undefined || app.applicationName.toLowerCase().includes(contains)) &&
      (profile === undefined || app.outbound.outboundVoiceProfileId === profile),
  );
  return {
    status: 200,
    body: telnyxPage(apps.map(serializeApplication), page.number, page.size),
  };
}

/**
 * Reads a create or update body (both require application_name and webhook_event_url, as in
 * Telnyx's API) into `app`; returns the error response when the body is invalid.
 */
function readApp(a: TelnyxAccount, app: Partial<TelnyxApplication>, body: Json) {
  const name = str(body, 'application_name');
  const url = body.webhook_event_url;
  if (!name) return E.missing('application_name');
  if (url === undefined || url === '') return E.missing('webhook_event_url');
  if (!isHttpUrl(url)) return E.invalidUrl('/webhook_event_url');
  const failover = body.webhook_event_failover_url;
  if (failover && !isHttpUrl(failover)) return E.invalidUrl('/webhook_event_failover_url');
  const version = body.webhook_api_version;
  if (version !== undefined && version !== '1' && version !== '2')
    return E.badRequest("webhook_api_version must be '1' or '2'.", '/webhook_api_version', 422);
  const outbound = obj(body.outbound);
  const profileId = outbound.outbound_voice_profile_id;
  if (typeof profileId === 'string' && !a.outboundVoiceProfiles.has(profileId))
    return E.noSuchAssociation('/outbound/outbound_voice_profile_id');
  const inbound = obj(body.inbound);
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const updates: Partial<TelnyxApplication> = {
    applicationName: name,
    webhookEventUrl: url,
    webhookEventFailoverUrl:
      'webhook_event_failover_url' in body ? text(failover) || null : undefined,
    webhookApiVersion: version,
    webhookTimeoutSecs: num(body.webhook_timeout_secs),
    active: bool(body.active),
    callCostInWebhooks: bool(body.call_cost_in_webhooks),
    firstCommandTimeout: bool(body.first_command_timeout),
    firstCommandTimeoutSecs: num(body.first_command_timeout_secs),
    dtmfType: text(body.dtmf_type),
    anchorsiteOverride: text(body.anchorsite_override),
    tags: Array.isArray(body.tags) ? body.tags.map(String) : undefined,
    outbound:
      body.outbound === undefined
        ? undefined
        : {
            channelLimit: num(outbound.channel_limit) ?? null,
            outboundVoiceProfileId: text(profileId) ?? null,
          },
    inbound:
      body.inbound === undefined
        ? undefined
        : {
            channelLimit: num(inbound.channel_limit) ?? null,
            shakenStirEnabled: inbound.shaken_stir_enabled === true,
            sipSubdomain: text(inbound.sip_subdomain) ?? null,
          },
  };
  for (const [key, value] of Object.entries(updates))
    if (value !== undefined) Object.assign(app, { [key]: value });
  return undefined;
}

function createApp(_ctx: RouteContext, a: TelnyxAccount, body: Json): FakeResponse {
  const draft: Partial<TelnyxApplication> = {};
  const invalid = readApp(a, draft, body);
  if (invalid) return invalid;
  const { applicationName = '', webhookEventUrl = '' } = draft;
  const app = createApplication(a, { ...draft, applicationName, webhookEventUrl });
  return { status: 201, body: { data: serializeApplication(app) } };
}

function getApp(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const app = a.applications.get(ctx.params.id);
  if (!app) return telnyxErrorFor(404);
  return { status: 200, body: { data: serializeApplication(app) } };
}

function patchApp(ctx: RouteContext, a: TelnyxAccount, body: Json): FakeResponse {
  const app = a.applications.get(ctx.params.id);
  if (!app) return telnyxErrorFor(404);
  const draft: Partial<TelnyxApplication> = {};
  const invalid = readApp(a, draft, body);
  if (invalid) return invalid;
  Object.assign(app, draft, { updatedAt: new Date() });
  return { status: 200, body: { data: serializeApplication(app) } };
}

function deleteApp(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const app = a.applications.get(ctx.params.id);
  if (!app) return telnyxErrorFor(404);
  a.applications.delete(app.id);
  for (const n of a.numbers.values()) if (n.connectionId === app.id) n.connectionId = null;
  return { status: 200, body: { data: serializeApplication(app) } };
}

function listProfiles(ctx: RouteContext, a: TelnyxAccount): FakeResponse {
  const page = paging(ctx);
  if (!page) return E.badRequest(BAD_PAGE);
  const apps = [...a.applications.values()];
  const data = newestFirst(a.outboundVoiceProfiles.values()).map((p) =>
    serializeProfile(p, apps.filter((app) => app.outbound.outboundVoiceProfileId === p.id).length),
  );
  return { status: 200, body: telnyxPage(data, page.number, page.size) };
}

function validClientState(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && BASE64.test(value));
}

function dial(a: TelnyxAccount, body: Json, state: TelnyxState): FakeResponse {
  const connectionId = str(body, 'connection_id');
  const to = str(body, 'to');
  const from = str(body, 'from');
  if (!connectionId) return E.missing('connection_id');
  if (!to) return E.missing('to');
  if (!from) return E.missing('from');
  if (!E164.test(to)) return E.notE164('/to');
  if (!E164.test(from)) return E.notE164('/from');
  const app = a.applications.get(connectionId);
  if (!app) return E.noSuchAssociation('/connection_id');
  if (!app.active || !app.outbound.outboundVoiceProfileId)
    return E.badRequest(
      'Outbound calls are not allowed: the connection is inactive or has no outbound voice profile.',
      '/connection_id',
      422,
    );
  if (!validClientState(body.client_state))
    return E.badRequest('client_state must be a base64 encoded string.', '/client_state', 422);
  if (!validTimeout(body.timeout_secs)) return badTimeout();
  if (body.webhook_url !== undefined && !isHttpUrl(body.webhook_url))
    return E.invalidUrl('/webhook_url');
  const call: TelnyxCall = {
    callControlId: `v3:${randomBytes(33).toString('base64url')}`,
    callLegId: randomUUID(),
    callSessionId: randomUUID(),
    apiKey: a.apiKey,
    connectionId,
    from,
    to,
    webhookUrl: str(body, 'webhook_url'),
    clientState: str(body, 'client_state') ?? null,
    params: body,
    state: 'dialing',
    createdAt: new Date(),
    actions: [],
    hangupRequested: false,
  };
  state.calls.set(call.callControlId, call);
  state.placed?.(call.callControlId, call.to);
  const data = {
    call_control_id: call.callControlId,
    call_leg_id: call.callLegId,
    call_session_id: call.callSessionId,
    is_alive: false,
    record_type: 'call',
  };
  return { status: 200, body: { data } };
}

/** `GET /v2/calls/{call_control_id}`: Telnyx tells only whether the call is alive. */
const getCall =
  (state: TelnyxState) =>
  (ctx: RouteContext, a: TelnyxAccount): FakeResponse => {
    const call = state.calls.get(ctx.params.id);
    if (!call || call.apiKey !== a.apiKey || call.forgotten) return telnyxErrorFor(404);
    const end = call.endedAt ?? new Date();
    const data = {
      call_control_id: call.callControlId,
      call_leg_id: call.callLegId,
      call_session_id: call.callSessionId,
      is_alive: !call.endedAt,
      call_duration: call.answeredAt
        ? Math.round((end.getTime() - call.answeredAt.getTime()) / 1000)
        : 0,
      record_type: 'call',
    };
    return { status: 200, body: { data } };
  };

function action(ctx: RouteContext, a: TelnyxAccount, body: Json, state: TelnyxState) {
  const call = state.calls.get(ctx.params.id);
  if (!call || call.apiKey !== a.apiKey || !ACTIONS.has(ctx.params.action))
    return telnyxErrorFor(404);
  if (call.endedAt) return E.callEnded();
  if (ctx.params.action === 'transfer' && !str(body, 'to')) return E.missing('to');
  if (!validTimeout(body.timeout_secs)) return badTimeout();
  if (!validClientState(body.client_state))
    return E.badRequest('client_state must be a base64 encoded string.', '/client_state', 422);
  // A command's client_state replaces the call's for the webhooks that follow.
  const clientState = str(body, 'client_state');
  if (clientState !== undefined) call.clientState = clientState;
  call.actions.push({ action: ctx.params.action, body });
  if (ctx.params.action === 'hangup') call.hangupRequested = true;
  return { status: 200, body: { data: { result: 'ok' } } };
}
