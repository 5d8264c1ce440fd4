import { randomBytes } from 'node:crypto';
import {
  basicCredentials,
  field,
  fieldList,
  hasField,
  isHttpUrl as isUrlValue,
  type FakeResponse,
  type FormBody,
  type RecordedRequest,
  type RouteContext,
  type RouteHandler,
  type RouteRegistrar,
} from './http-fake';
import {
  TWILIO_API_VERSION,
  findNumber,
  serializeAccount,
  serializeCall,
  serializeNumber,
  twilioError,
  twilioErrorFor,
  type TwilioAccount,
  type TwilioCall,
  type TwilioNumber,
  type TwilioState,
} from './twilio.model';

// Not a type guard: a rejected string stays a string for the error message.
const isHttpUrl = (value: string): boolean => isUrlValue(value);
const A = `/${TWILIO_API_VERSION}/Accounts/:sid`;
const E164 = /^\+[1-9]\d{6,14}$/;

type Handler = (ctx: RouteContext, account: TwilioAccount) => FakeResponse;
type Method = 'GET' | 'POST';

export const twilioSid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const method = (value: string | undefined): Method | undefined => {
  const upper = (value ?? 'POST').toUpperCase();
  return upper === 'GET' || upper === 'POST' ? upper : undefined;
};
// Twilio reads only form parameters; a JSON body reaches it as no parameters at all.
const form = (req: RecordedRequest): FormBody =>
  (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
    ? (req.body as FormBody)
    : {};

/** Twilio's 2010-04-01 resources under `/Accounts/{Sid}`: `.json` paths, form bodies. */
export function registerTwilioApi(route: RouteRegistrar, state: TwilioState): void {
  const authed =
    (handler: Handler, allowInactive = false): RouteHandler =>
    (ctx) => {
      const credentials = basicCredentials(ctx.req.headers);
      const account = state.accounts.get(ctx.params.sid);
      const valid =
        account !== undefined &&
        credentials !== undefined &&
        ((credentials.user === account.sid && credentials.password === account.authToken) ||
          account.apiKeys.get(credentials.user) === credentials.password);
      if (!valid) return twilioErrorFor(401);
      // The account itself stays readable, so a client can see it is suspended or closed.
      if (!allowInactive && account.status !== 'active')
        return twilioError(401, 20005, 'Account not active');
      return handler(ctx, account);
    };
  const numbers = `${A}/IncomingPhoneNumbers`;
  route('GET', `${A}.json`, authed(getAccount, true));
  route('GET', `${numbers}.json`, authed(list));
  route('GET', `${numbers}/:pn.json`, authed(getPn));
  route('POST', `${numbers}/:pn.json`, authed(setPn));
  const withState = (
    handler: (c: RouteContext, a: TwilioAccount, s: TwilioState) => FakeResponse,
  ) => authed((ctx, a) => handler(ctx, a, state));
  route('POST', `${A}/Calls.json`, withState(placeCall));
  route('GET', `${A}/Calls/:call.json`, withState(getCall));
  route('POST', `${A}/Calls/:call.json`, withState(updateCall));
}

function notFound(req: RecordedRequest): FakeResponse {
  return twilioErrorFor(404, `The requested resource ${req.path} was not found`);
}

function getAccount(_ctx: RouteContext, a: TwilioAccount): FakeResponse {
  return { status: 200, body: serializeAccount(a) };
}

function list(ctx: RouteContext, a: TwilioAccount): FakeResponse {
  const q = ctx.req.query;
  const pageSize = Number(field(q, 'PageSize') ?? 50);
  const page = Number(field(q, 'Page') ?? 0);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    return twilioError(400, 20001, 'PageSize must be between 1 and 1000');
  if (!Number.isInteger(page) || page < 0) return twilioError(400, 20001, 'Invalid Page');
  const phone = field(q, 'PhoneNumber');
  // PhoneNumber matches partial numbers, `*` standing for any one digit.
  const pattern = phone
    ? new RegExp(phone.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '\\d'))
    : undefined;
  const friendly = field(q, 'FriendlyName');
  const matches = [...a.numbers.values()].filter(
    (n) => (!pattern || pattern.test(n.phoneNumber)) && (!friendly || n.friendlyName === friendly),
  );
  const start = page * pageSize;
  const items = matches.slice(start, start + pageSize);
  const filters = new URLSearchParams();
  if (phone) filters.set('PhoneNumber', phone);
  if (friendly) filters.set('FriendlyName', friendly);
  const path = `/${TWILIO_API_VERSION}/Accounts/${a.sid}/IncomingPhoneNumbers.json`;
  const uri = (p: number) => {
    const query = new URLSearchParams(filters);
    query.set('PageSize', String(pageSize));
    query.set('Page', String(p));
    if (p > 0) query.set('PageToken', `PA${a.sid}${p}`);
    return `${path}?${query.toString()}`;
  };
  return {
    status: 200,
    body: {
      end: items.length === 0 ? start : start + items.length - 1,
      first_page_uri: uri(0),
      incoming_phone_numbers: items.map((n) => serializeNumber(a.sid, n)),
      next_page_uri: start + pageSize < matches.length ? uri(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? uri(page - 1) : null,
      start,
      uri: uri(page),
    },
  };
}

function getPn(ctx: RouteContext, a: TwilioAccount): FakeResponse {
  const n = a.numbers.get(ctx.params.pn);
  return n ? { status: 200, body: serializeNumber(a.sid, n) } : notFound(ctx.req);
}

function setPn(ctx: RouteContext, a: TwilioAccount): FakeResponse {
  const n = a.numbers.get(ctx.params.pn);
  if (!n) return notFound(ctx.req);
  const body = form(ctx.req);
  const text: Array<[string, keyof TwilioNumber]> = [
    ['VoiceUrl', 'voiceUrl'],
    ['VoiceFallbackUrl', 'voiceFallbackUrl'],
    ['StatusCallback', 'statusCallback'],
    ['VoiceApplicationSid', 'voiceApplicationSid'],
    ['FriendlyName', 'friendlyName'],
  ];
  const methods: Array<[string, keyof TwilioNumber]> = [
    ['VoiceMethod', 'voiceMethod'],
    ['VoiceFallbackMethod', 'voiceFallbackMethod'],
    ['StatusCallbackMethod', 'statusCallbackMethod'],
  ];
  for (const param of ['VoiceUrl', 'VoiceFallbackUrl', 'StatusCallback']) {
    const value = field(body, param);
    if (value && !isHttpUrl(value)) return twilioError(400, 21502, `Invalid ${param}: ${value}`);
  }
  for (const [param] of methods) {
    if (hasField(body, param) && !method(field(body, param)))
      return twilioError(400, 20001, `${param} must be GET or POST`);
  }
  for (const [param, key] of text)
    if (hasField(body, param)) Object.assign(n, { [key]: field(body, param) ?? '' });
  for (const [param, key] of methods)
    if (hasField(body, param)) Object.assign(n, { [key]: method(field(body, param)) });
  if (hasField(body, 'VoiceCallerIdLookup'))
    n.voiceCallerIdLookup = field(body, 'VoiceCallerIdLookup') === 'true';
  n.updatedAt = new Date();
  return { status: 200, body: serializeNumber(a.sid, n) };
}

function placeCall(ctx: RouteContext, a: TwilioAccount, state: TwilioState): FakeResponse {
  const body = form(ctx.req);
  const to = field(body, 'To');
  const from = field(body, 'From');
  if (!to) return twilioError(400, 21201, "No 'To' number is specified");
  if (!from) return twilioError(400, 21213, "No 'From' number is specified");
  if (!E164.test(to)) return twilioError(400, 21211, `Invalid 'To' Phone Number: ${to}`);
  const owned = findNumber(a, from);
  if (!E164.test(from) || !owned || !owned.capabilities.voice)
    return twilioError(
      400,
      21210,
      `The source phone number provided, ${from}, is not yet verified for your account. ` +
        "You may only make calls from phone numbers that you've verified or purchased from Twilio.",
    );
  const url = field(body, 'Url');
  const twiml = field(body, 'Twiml');
  const applicationSid = field(body, 'ApplicationSid');
  if ([url, twiml, applicationSid].filter(Boolean).length !== 1)
    return twilioError(400, 21205, 'Exactly one of Url, Twiml or ApplicationSid is required');
  if (url !== undefined && !isHttpUrl(url))
    return twilioError(400, 21205, `Url is not a valid URL: ${url}`);
  const statusCallback = field(body, 'StatusCallback');
  if (statusCallback && !isHttpUrl(statusCallback))
    return twilioError(400, 21609, `Invalid StatusCallback: ${statusCallback}`);
  const callMethod = method(field(body, 'Method'));
  const callbackMethod = method(field(body, 'StatusCallbackMethod'));
  if (!callMethod || !callbackMethod)
    return twilioError(400, 20001, 'Method and StatusCallbackMethod must be GET or POST');
  const events = fieldList(body, 'StatusCallbackEvent').flatMap((e) => e.split(' '));
  const now = new Date();
  const call: TwilioCall = {
    sid: twilioSid('CA'),
    accountSid: a.sid,
    from,
    to,
    phoneNumberSid: owned.sid,
    url,
    method: callMethod,
    twiml,
    applicationSid,
    statusCallback: statusCallback || undefined,
    statusCallbackMethod: callbackMethod,
    statusCallbackEvents: events.length > 0 ? events : ['completed'],
    machineDetection: field(body, 'MachineDetection'),
    asyncAmd: field(body, 'AsyncAmd') === 'true',
    asyncAmdStatusCallback: field(body, 'AsyncAmdStatusCallback') || undefined,
    params: body,
    status: 'queued',
    sequence: 0,
    createdAt: now,
    updatedAt: now,
    hangupRequested: false,
    redirects: [],
  };
  state.calls.set(call.sid, call);
  state.placed?.(call.sid, call.to);
  return { status: 201, body: serializeCall(call) };
}

function ownCall(ctx: RouteContext, a: TwilioAccount, state: TwilioState): TwilioCall | undefined {
  const call = state.calls.get(ctx.params.call);
  return call?.accountSid === a.sid ? call : undefined;
}

function getCall(ctx: RouteContext, a: TwilioAccount, state: TwilioState): FakeResponse {
  const call = ownCall(ctx, a, state);
  return call ? { status: 200, body: serializeCall(call) } : notFound(ctx.req);
}

function updateCall(ctx: RouteContext, a: TwilioAccount, state: TwilioState): FakeResponse {
  const call = ownCall(ctx, a, state);
  if (!call) return notFound(ctx.req);
  const body = form(ctx.req);
  const status = field(body, 'Status');
  const redirect = hasField(body, 'Url') || hasField(body, 'Twiml');
  if (status !== undefined && status !== 'completed' && status !== 'canceled')
    return twilioError(400, 20001, `Invalid Status: ${status}`);
  if ((status || redirect) && call.endedAt)
    return twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.');
  if (redirect && !status && call.status !== 'in-progress')
    return twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.');
  if (status) call.hangupRequested = true;
  else if (redirect) call.redirects.push(body);
  call.updatedAt = new Date();
  return { status: 200, body: serializeCall(call) };
}
