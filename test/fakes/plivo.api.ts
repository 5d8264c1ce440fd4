import { randomUUID } from 'node:crypto';
import {
  basicCredentials,
  field,
  hasField,
  isHttpUrl,
  newApiId,
  type FakeResponse,
  type RouteContext,
  type RouteHandler,
  type RouteRegistrar,
} from './http-fake';
import {
  PLIVO_HANGUP,
  createApplication,
  plivoDigits,
  plivoError,
  plivoPage,
  plivoTime,
  serializeApplication,
  serializeNumber,
  type PlivoAccount,
  type PlivoApplication,
  type PlivoCall,
  type PlivoState,
} from './plivo.model';

const P = '/v1/Account/:authId';
const APP_NAME = /^[A-Za-z0-9_-]+$/;

type Handler = (ctx: RouteContext, account: PlivoAccount) => FakeResponse;
type Method = 'GET' | 'POST';

const method = (value: string | undefined): Method | undefined =>
  value === undefined ? 'POST' : value === 'GET' || value === 'POST' ? value : undefined;

/** Plivo's REST resources under `/v1/Account/{authId}/`; every path ends in `/`. */
export function registerPlivoApi(route: RouteRegistrar, state: PlivoState): void {
  const authed =
    (handler: Handler): RouteHandler =>
    (ctx) => {
      const credentials = basicCredentials(ctx.req.headers);
      const account = credentials && state.accounts.get(credentials.user);
      if (!account || credentials.password !== account.authToken) return plivoError(401);
      if (ctx.params.authId !== account.authId) return plivoError(401);
      return handler(ctx, account);
    };
  // As at Plivo, a call's actions (`Call/{uuid}/`) name it by its CallUUID; the request_uuid
  // that `POST Call/` returned names it only in `Request/{uuid}/` (cancelling it).
  const liveCall = (uuid: string, a: PlivoAccount): PlivoCall | undefined => {
    const call = [...state.calls.values()].find((c) => c.callUuid === uuid);
    return call && call.authId === a.authId && !call.endedAt ? call : undefined;
  };
  const request = (uuid: string, a: PlivoAccount): PlivoCall | undefined => {
    const call = state.calls.get(uuid);
    return call && call.authId === a.authId && !call.endedAt ? call : undefined;
  };

  route('GET', `${P}/`, authed(getAccount));
  route('GET', `${P}/Number/`, authed(listNumbers));
  route('GET', `${P}/Number/:number/`, authed(getNumber));
  route('POST', `${P}/Number/:number/`, authed(updateNumber));
  route('GET', `${P}/Application/`, authed(listApps));
  route('POST', `${P}/Application/`, authed(createApp));
  route('GET', `${P}/Application/:appId/`, authed(getApp));
  route('POST', `${P}/Application/:appId/`, authed(updateApp));
  route('DELETE', `${P}/Application/:appId/`, authed(deleteApp));
  route(
    'POST',
    `${P}/Call/`,
    authed((ctx, a) => placeCall(ctx, a, state)),
  );
  route(
    'GET',
    `${P}/Call/`,
    authed((ctx, a) => listCalls(ctx, a, state)),
  );
  route(
    'GET',
    `${P}/Call/:uuid/`,
    authed((ctx, a) => getCall(ctx, a, state)),
  );
  route(
    'POST',
    `${P}/Call/:uuid/`,
    authed((ctx, a) => transfer(ctx, liveCall(ctx.params.uuid, a))),
  );
  route(
    'POST',
    `${P}/Call/:uuid/DTMF/`,
    authed((ctx, a) => sendDigits(ctx, liveCall(ctx.params.uuid, a))),
  );
  const hangup = (find: typeof liveCall) =>
    authed((ctx, a) => {
      const call = find(ctx.params.uuid, a);
      if (!call) return plivoError(404);
      call.hangupRequested = true;
      return { status: 204 };
    });
  route('DELETE', `${P}/Call/:uuid/`, hangup(liveCall));
  route('DELETE', `${P}/Request/:uuid/`, hangup(request));
}

function getAccount(_ctx: RouteContext, a: PlivoAccount): FakeResponse {
  return {
    status: 200,
    body: {
      account_type: 'standard',
      address: '',
      api_id: newApiId(),
      auth_id: a.authId,
      auto_recharge: false,
      billing_mode: 'prepaid',
      cash_credits: a.cashCredits,
      city: '',
      name: a.name,
      resource_uri: `/v1/Account/${a.authId}/`,
      state: '',
      timezone: 'America/Los_Angeles',
    },
  };
}

function paging(ctx: RouteContext): { limit: number; offset: number } | undefined {
  const limit = Number(field(ctx.req.query, 'limit') ?? 20);
  const offset = Number(field(ctx.req.query, 'offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 20) return undefined;
  if (!Number.isInteger(offset) || offset < 0) return undefined;
  return { limit, offset };
}

const BAD_PAGING = 'limit must be 1 to 20 and offset at least 0';

function listNumbers(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const page = paging(ctx);
  if (!page) return plivoError(400, BAD_PAGING);
  const startsWith = field(ctx.req.query, 'number_startswith') ?? '';
  const numbers = [...a.numbers.values()]
    .filter((n) => n.number.startsWith(startsWith))
    .map((n) => serializeNumber(a.authId, n));
  const extra = startsWith ? `&number_startswith=${startsWith}` : '';
  const path = `/v1/Account/${a.authId}/Number/`;
  return {
    status: 200,
    body: plivoPage(newApiId(), path, numbers, page.limit, page.offset, extra),
  };
}

// Plivo writes numbers as digits: `Number/+1415.../` is not a number of the account.
function getNumber(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const n = a.numbers.get(ctx.params.number);
  if (!n) return plivoError(404);
  return { status: 200, body: { api_id: newApiId(), ...serializeNumber(a.authId, n) } };
}

function updateNumber(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const n = a.numbers.get(ctx.params.number);
  if (!n) return plivoError(404);
  const body = ctx.req.body;
  if (hasField(body, 'app_id')) {
    const appId = field(body, 'app_id') ?? '';
    if (appId !== '' && !a.applications.has(appId)) return plivoError(404, 'application not found');
    n.appId = appId === '' ? null : appId;
  }
  if (hasField(body, 'alias')) n.alias = field(body, 'alias') ?? null;
  return { status: 202, body: { api_id: newApiId(), message: 'changed' } };
}

function listApps(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const page = paging(ctx);
  if (!page) return plivoError(400, BAD_PAGING);
  const apps = [...a.applications.values()].map((app) => serializeApplication(a.authId, app));
  const path = `/v1/Account/${a.authId}/Application/`;
  return { status: 200, body: plivoPage(newApiId(), path, apps, page.limit, page.offset) };
}

/** Reads app fields of a create/update body into `app`; returns an error message or undefined. */
function readAppFields(app: Partial<PlivoApplication>, body: unknown): string | undefined {
  const text = (key: string) => field(body, key);
  const appName = text('app_name');
  if (appName !== undefined && !APP_NAME.test(appName))
    return 'app_name may contain only letters, digits, hyphens and underscores';
  for (const key of ['answer_url', 'hangup_url', 'fallback_answer_url', 'message_url']) {
    const value = text(key);
    if (value !== undefined && value !== '' && !isHttpUrl(value)) return `invalid ${key}`;
  }
  for (const key of ['answer_method', 'hangup_method', 'fallback_method', 'message_method']) {
    if (method(text(key)) === undefined) return `${key} must be GET or POST`;
  }
  const bool = (key: string) => (text(key) === undefined ? undefined : text(key) === 'true');
  const updates: Partial<PlivoApplication> = {
    appName,
    answerUrl: text('answer_url'),
    answerMethod: text('answer_method'),
    hangupUrl: text('hangup_url'),
    hangupMethod: text('hangup_method'),
    fallbackAnswerUrl: text('fallback_answer_url'),
    fallbackMethod: text('fallback_method'),
    messageUrl: text('message_url'),
    messageMethod: text('message_method'),
    defaultNumberApp: bool('default_number_app'),
    defaultEndpointApp: bool('default_endpoint_app'),
    logIncomingMessages: bool('log_incoming_messages'),
    subAccount: text('subaccount'),
  };
  for (const [key, value] of Object.entries(updates))
    if (value !== undefined) Object.assign(app, { [key]: value });
  return undefined;
}

function createApp(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const body = ctx.req.body;
  const appName = field(body, 'app_name');
  const answerUrl = field(body, 'answer_url');
  if (!appName) return plivoError(400, 'app_name parameter is required');
  if (!answerUrl) return plivoError(400, 'answer_url parameter is required');
  if ([...a.applications.values()].some((app) => app.appName === appName))
    return plivoError(400, 'an application with this app_name already exists');
  const draft: Partial<PlivoApplication> = {};
  const invalid = readAppFields(draft, body);
  if (invalid) return plivoError(400, invalid);
  const app = createApplication(a, { ...draft, appName, answerUrl });
  return { status: 201, body: { api_id: newApiId(), app_id: app.appId, message: 'created' } };
}

function getApp(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const app = a.applications.get(ctx.params.appId);
  if (!app) return plivoError(404);
  return { status: 200, body: { api_id: newApiId(), ...serializeApplication(a.authId, app) } };
}

function updateApp(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  const app = a.applications.get(ctx.params.appId);
  if (!app) return plivoError(404);
  const draft: Partial<PlivoApplication> = {};
  const invalid = readAppFields(draft, ctx.req.body);
  if (invalid) return plivoError(400, invalid);
  Object.assign(app, draft);
  return { status: 202, body: { api_id: newApiId(), message: 'changed' } };
}

function deleteApp(ctx: RouteContext, a: PlivoAccount): FakeResponse {
  if (!a.applications.delete(ctx.params.appId)) return plivoError(404);
  for (const n of a.numbers.values()) if (n.appId === ctx.params.appId) n.appId = null;
  return { status: 204 };
}

function placeCall(ctx: RouteContext, a: PlivoAccount, state: PlivoState): FakeResponse {
  const body = ctx.req.body;
  const from = field(body, 'from');
  const to = field(body, 'to');
  const answerUrl = field(body, 'answer_url');
  if (!from) return plivoError(400, 'from parameter is required');
  if (!to) return plivoError(400, 'to parameter is required');
  if (!answerUrl) return plivoError(400, 'answer_url parameter is required');
  const ringUrl = field(body, 'ring_url') || undefined;
  const hangupUrl = field(body, 'hangup_url') || answerUrl;
  if (![answerUrl, ringUrl ?? answerUrl, hangupUrl].every(isHttpUrl))
    return plivoError(400, 'invalid callback url');
  const detection = field(body, 'machine_detection');
  if (detection !== undefined && !['true', 'hangup'].includes(detection))
    return plivoError(400, 'machine_detection must be true or hangup');
  const detectionUrl = field(body, 'machine_detection_url');
  if (detectionUrl !== undefined && !isHttpUrl(detectionUrl))
    return plivoError(400, 'invalid machine_detection_url');
  if (field(body, 'machine_detection_method') && !method(field(body, 'machine_detection_method')))
    return plivoError(400, 'machine_detection_method must be GET or POST');
  const answerMethod = method(field(body, 'answer_method'));
  const ringMethod = method(field(body, 'ring_method'));
  const hangupMethod = method(field(body, 'hangup_method'));
  if (!answerMethod || !ringMethod || !hangupMethod)
    return plivoError(400, 'methods must be GET or POST');
  // `<` separates bulk destinations: one call (and one request_uuid) each.
  const uuids = to.split('<').map((destination) => {
    const call: PlivoCall = {
      requestUuid: randomUUID(),
      callUuid: randomUUID(),
      authId: a.authId,
      from: plivoDigits(from),
      to: plivoDigits(destination),
      answerUrl,
      answerMethod,
      ringUrl,
      ringMethod,
      hangupUrl,
      hangupMethod,
      params: body,
      status: 'queued',
      createdAt: new Date(),
      hangupRequested: false,
      transfers: [],
      digitsSent: [],
    };
    state.calls.set(call.requestUuid, call);
    state.placed?.(call.requestUuid, call.to);
    return call.requestUuid;
  });
  const requestUuid = uuids.length === 1 ? uuids[0] : uuids;
  return {
    status: 201,
    body: { api_id: newApiId(), message: 'call fired', request_uuid: requestUuid },
  };
}

type Ended = PlivoCall & { endedAt: Date };

/** A call between its dial and its hang-up: the only state `?status=live` knows. */
const isLive = (call: PlivoCall): boolean =>
  !call.endedAt && (call.status === 'ringing' || call.status === 'in-progress');

const isQueued = (call: PlivoCall): boolean => !call.endedAt && call.status === 'queued';

/**
 * As at Plivo, a call has one id per stage: `GET Call/{request_uuid}/?status=queued` while it
 * waits in the account's queue; `GET Call/{CallUUID}/?status=live` from its dial to its hang-up;
 * `GET Call/{CallUUID}/` (its CDR) once it ended. Any other id, or a stage the call is not in,
 * is a 404.
 */
function getCall(ctx: RouteContext, a: PlivoAccount, state: PlivoState): FakeResponse {
  const uuid = ctx.params.uuid;
  const mine = [...state.calls.values()].filter((c) => c.authId === a.authId);
  const status = field(ctx.req.query, 'status');
  if (status === 'queued') {
    const call = mine.find((c) => c.requestUuid === uuid && isQueued(c));
    return call ? { status: 200, body: queuedCallBody(call) } : plivoError(404, 'call not found');
  }
  if (status === 'live') {
    const call = mine.find((c) => c.callUuid === uuid && isLive(c));
    return call ? { status: 200, body: liveCallBody(call) } : plivoError(404, 'call not found');
  }
  if (status !== undefined) return plivoError(400, 'status must be live or queued');
  const call = mine.find((c): c is Ended => c.callUuid === uuid && c.endedAt !== undefined);
  return call
    ? { status: 200, body: { api_id: newApiId(), ...callRecord(a, call) } }
    : plivoError(404, 'call not found');
}

/**
 * `GET Call/?status=queued` lists request_uuids, `?status=live` CallUUIDs (filtered by
 * call_direction, from_number, to_number); without `status`, the CDRs of ended calls, newest
 * first, filtered by numbers (exact or prefix) and end_time (`end_time__gte=YYYY-MM-DD HH:MM:SS`).
 */
function listCalls(ctx: RouteContext, a: PlivoAccount, state: PlivoState): FakeResponse {
  const query = ctx.req.query;
  const direction = field(query, 'call_direction');
  if (direction !== undefined && direction !== 'outbound' && direction !== 'inbound')
    return plivoError(400, 'call_direction must be inbound or outbound');
  const from = field(query, 'from_number') ?? '';
  const to = field(query, 'to_number') ?? '';
  const mine = [...state.calls.values()].filter(
    (c) =>
      c.authId === a.authId &&
      direction !== 'inbound' &&
      c.from.startsWith(from) &&
      c.to.startsWith(to),
  );
  const status = field(query, 'status');
  if (status === 'queued') {
    const calls = mine.filter(isQueued).map((c) => c.requestUuid);
    return { status: 200, body: { api_id: newApiId(), calls } };
  }
  if (status === 'live') {
    const calls = mine.filter(isLive).map((c) => c.callUuid);
    return { status: 200, body: { api_id: newApiId(), calls } };
  }
  if (status !== undefined) return plivoError(400, 'status must be live or queued');
  const page = paging(ctx);
  if (!page) return plivoError(400, BAD_PAGING);
  let ended = mine.filter((c): c is Ended => c.endedAt !== undefined);
  for (const [suffix, keep] of END_TIME_FILTERS) {
    const value = field(query, `end_time${suffix}`);
    if (value === undefined) continue;
    if (!PLIVO_TIME.test(value)) return plivoError(400, `invalid end_time${suffix}`);
    const bound = Date.parse(`${value.replace(' ', 'T')}Z`);
    ended = ended.filter((c) => keep(Math.floor(c.endedAt.getTime() / 1000) * 1000, bound));
  }
  const records = ended
    .sort((x, y) => y.endedAt.getTime() - x.endedAt.getTime())
    .map((c) => callRecord(a, c));
  const path = `/v1/Account/${a.authId}/Call/`;
  return { status: 200, body: plivoPage(newApiId(), path, records, page.limit, page.offset) };
}

const PLIVO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const END_TIME_FILTERS: Array<[string, (time: number, bound: number) => boolean]> = [
  ['', (time, bound) => time === bound],
  ['__gt', (time, bound) => time > bound],
  ['__gte', (time, bound) => time >= bound],
  ['__lt', (time, bound) => time < bound],
  ['__lte', (time, bound) => time <= bound],
];

function queuedCallBody(call: PlivoCall) {
  return {
    api_id: newApiId(),
    call_status: 'queued',
    caller_name: `+${call.from}`,
    direction: 'outbound',
    from: call.from,
    request_uuid: call.requestUuid,
    to: call.to,
  };
}

function liveCallBody(call: PlivoCall) {
  return {
    api_id: newApiId(),
    call_status: call.status,
    call_uuid: call.callUuid,
    caller_name: `+${call.from}`,
    direction: 'outbound',
    from: call.from,
    request_uuid: call.requestUuid,
    session_start: plivoTime(call.createdAt),
    to: call.to,
  };
}

/** The Call object (CDR) of an ended call; it names the call by CallUUID only. */
function callRecord(a: PlivoAccount, call: Ended) {
  const status =
    call.status === 'queued' || call.status === 'ringing' || call.status === 'in-progress'
      ? call.answeredAt
        ? 'completed'
        : 'cancel'
      : call.status;
  const hangup = PLIVO_HANGUP[!call.answeredAt && call.hangupRequested ? 'cancel' : status];
  const duration = call.answeredAt
    ? Math.max(1, Math.round((call.endedAt.getTime() - call.answeredAt.getTime()) / 1000))
    : 0;
  return {
    answer_time: call.answeredAt ? plivoTime(call.answeredAt) : null,
    bill_duration: duration,
    billed_duration: Math.ceil(duration / 60) * 60,
    call_direction: 'outbound',
    call_duration: duration,
    call_uuid: call.callUuid,
    end_time: plivoTime(call.endedAt),
    from_number: call.from,
    hangup_cause_code: Number(hangup.code),
    hangup_cause_name: hangup.name,
    hangup_source: hangup.source,
    initiation_time: plivoTime(call.createdAt),
    parent_call_uuid: null,
    resource_uri: `/v1/Account/${a.authId}/Call/${call.callUuid}/`,
    to_number: call.to,
  };
}

/** `POST Call/{uuid}/DTMF/`: digits (0-9, *, #, w/W pauses) sent on the call's legs. */
function sendDigits(ctx: RouteContext, call: PlivoCall | undefined): FakeResponse {
  if (!call || call.status !== 'in-progress') return plivoError(404, 'call not found');
  const digits = field(ctx.req.body, 'digits');
  if (!digits || !/^[0-9*#wW]+$/.test(digits)) return plivoError(400, 'invalid digits');
  call.digitsSent.push(digits);
  return { status: 202, body: { api_id: newApiId(), message: 'digits sent' } };
}

function transfer(ctx: RouteContext, call: PlivoCall | undefined): FakeResponse {
  if (!call || call.status !== 'in-progress') return plivoError(404, 'call not found');
  const body = ctx.req.body;
  const legs = field(body, 'legs') ?? 'aleg';
  if (!['aleg', 'bleg', 'both'].includes(legs)) return plivoError(400, 'invalid legs');
  if (legs !== 'bleg' && !isHttpUrl(field(body, 'aleg_url')))
    return plivoError(400, 'aleg_url parameter is required');
  if (legs !== 'aleg' && !isHttpUrl(field(body, 'bleg_url')))
    return plivoError(400, 'bleg_url parameter is required');
  call.transfers.push(body);
  return {
    status: 202,
    body: { api_id: newApiId(), call_uuids: [call.callUuid], message: 'call transferred' },
  };
}
