import type { CallbackDelivery, FakeResponse, FormBody } from './http-fake';

export const TWILIO_API_VERSION = '2010-04-01';

/** Twilio state the tests read and change directly ("behind Switchboard's back"). */
export interface TwilioAccount {
  sid: string;
  authToken: string;
  friendlyName: string;
  status: 'active' | 'suspended' | 'closed';
  type: 'Trial' | 'Full';
  /** API Key SID → secret; `SK…:secret` Basic auth works like `AC…:token`. */
  apiKeys: Map<string, string>;
  /** Keyed by PN sid. */
  numbers: Map<string, TwilioNumber>;
  createdAt: Date;
}

export interface TwilioNumber {
  sid: string;
  /** +E.164 */
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  voiceFallbackUrl: string;
  voiceFallbackMethod: string;
  statusCallback: string;
  statusCallbackMethod: string;
  /** Wins over voiceUrl when set; '' when none. */
  voiceApplicationSid: string;
  voiceCallerIdLookup: boolean;
  capabilities: { voice: boolean; sms: boolean; mms: boolean; fax: boolean };
  createdAt: Date;
  updatedAt: Date;
}

export type TwilioCallStatus =
  | 'queued'
  | 'initiated'
  | 'ringing'
  | 'in-progress'
  | 'completed'
  | 'busy'
  | 'failed'
  | 'no-answer'
  | 'canceled';

export interface TwilioCall {
  sid: string;
  accountSid: string;
  from: string;
  to: string;
  phoneNumberSid: string;
  /** Exactly one of url, twiml, applicationSid was given. */
  url?: string;
  method: 'GET' | 'POST';
  twiml?: string;
  applicationSid?: string;
  statusCallback?: string;
  statusCallbackMethod: 'GET' | 'POST';
  /** Requested StatusCallbackEvent values (default `completed`). */
  statusCallbackEvents: string[];
  machineDetection?: string;
  /** AsyncAmd=true: the verdict goes to asyncAmdStatusCallback (reportMachineDetection), not the Url. */
  asyncAmd: boolean;
  asyncAmdStatusCallback?: string;
  /** The whole `POST Calls.json` form as sent (repeated keys as arrays). */
  params: FormBody;
  status: TwilioCallStatus;
  /** Next SequenceNumber for status callbacks. */
  sequence: number;
  createdAt: Date;
  updatedAt: Date;
  answeredAt?: Date;
  endedAt?: Date;
  /** Set by `POST Calls/{sid}.json` Status=completed|canceled; advanceCall sends the callback. */
  hangupRequested: boolean;
  /** Url/Twiml forms of `POST Calls/{sid}.json` (transfer / redirect). */
  redirects: FormBody[];
  /** The fetch of `Url` made when the call was answered (expects 200 TwiML). */
  answerFetch?: CallbackDelivery;
  /** The fetch of the last redirect's Url (fetchRedirect): the transfer's new TwiML. */
  redirectFetch?: CallbackDelivery;
  /** The child call the redirect's <Dial> placed, once it answered (dialedAnswered). */
  dialedSid?: string;
  /** The post to the <Dial>'s `action` when it ended (dialEnded): what the caller hears next. */
  dialActionFetch?: CallbackDelivery;
  /** The fetch of the <Number url> whisper on the answered child call (fetchBriefing). */
  briefingFetch?: CallbackDelivery;
}

/** What the API handlers and the fake share. */
export interface TwilioState {
  accounts: Map<string, TwilioAccount>;
  /** Keyed by Call SID. */
  calls: Map<string, TwilioCall>;
  /** Told of every accepted call (auto-progress). */
  placed?: (callSid: string, to: string) => void;
}

const ERRORS: Record<number, [number, string]> = {
  400: [20001, 'Invalid parameter'],
  401: [20003, 'Authenticate'],
  403: [20403, 'Forbidden'],
  404: [20404, 'The requested resource was not found'],
  405: [20004, 'Method not allowed'],
  429: [20429, 'Too Many Requests'],
  500: [20500, 'Internal Server Error'],
  503: [20503, 'Service Unavailable'],
};

/** Twilio's error body: `{code, message, more_info, status}`. */
export function twilioError(status: number, code: number, message: string): FakeResponse {
  return {
    status,
    body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  };
}

/** The generic error for an HTTP status (20003 on 401, 20429 + Retry-After on 429, ...). */
export function twilioErrorFor(
  status: number,
  message?: string,
  retryAfter?: number,
): FakeResponse {
  const [code, text] = ERRORS[status] ?? [20000 + status, 'Error'];
  const response = twilioError(status, code, message ?? text);
  if (status === 429 && retryAfter !== undefined)
    response.headers = { 'Retry-After': `${retryAfter}` };
  return response;
}

/** The account's IncomingPhoneNumber with exactly this number (`+` optional). */
export function findNumber(account: TwilioAccount, e164: string): TwilioNumber | undefined {
  const wanted = e164.startsWith('+') ? e164 : `+${e164}`;
  return [...account.numbers.values()].find((n) => n.phoneNumber === wanted);
}

/** `Mon, 02 Jan 2006 15:04:05 +0000`: Twilio's RFC 2822 dates. */
export const rfc2822 = (date: Date): string => date.toUTCString().replace('GMT', '+0000');

export const formatted = (e164: string): string => {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
};

const accountUri = (sid: string) => `/${TWILIO_API_VERSION}/Accounts/${sid}`;

export function serializeAccount(a: TwilioAccount) {
  const base = accountUri(a.sid);
  return {
    auth_token: a.authToken,
    date_created: rfc2822(a.createdAt),
    date_updated: rfc2822(a.createdAt),
    friendly_name: a.friendlyName,
    owner_account_sid: a.sid,
    sid: a.sid,
    status: a.status,
    subresource_uris: {
      calls: `${base}/Calls.json`,
      incoming_phone_numbers: `${base}/IncomingPhoneNumbers.json`,
      applications: `${base}/Applications.json`,
      keys: `${base}/Keys.json`,
    },
    type: a.type,
    uri: `${base}.json`,
  };
}

export function serializeNumber(accountSid: string, n: TwilioNumber) {
  return {
    account_sid: accountSid,
    address_requirements: 'none',
    address_sid: null,
    api_version: TWILIO_API_VERSION,
    beta: false,
    bundle_sid: null,
    capabilities: { ...n.capabilities },
    date_created: rfc2822(n.createdAt),
    date_updated: rfc2822(n.updatedAt),
    emergency_address_sid: null,
    emergency_address_status: 'unregistered',
    emergency_status: 'Active',
    friendly_name: n.friendlyName,
    identity_sid: null,
    origin: 'twilio',
    phone_number: n.phoneNumber,
    sid: n.sid,
    sms_application_sid: '',
    sms_fallback_method: 'POST',
    sms_fallback_url: '',
    sms_method: 'POST',
    sms_url: '',
    status: 'in-use',
    status_callback: n.statusCallback,
    status_callback_method: n.statusCallbackMethod,
    subresource_uris: {
      assigned_add_ons: `${accountUri(accountSid)}/IncomingPhoneNumbers/${n.sid}/AssignedAddOns.json`,
    },
    trunk_sid: null,
    uri: `${accountUri(accountSid)}/IncomingPhoneNumbers/${n.sid}.json`,
    voice_application_sid: n.voiceApplicationSid === '' ? null : n.voiceApplicationSid,
    voice_caller_id_lookup: n.voiceCallerIdLookup,
    voice_fallback_method: n.voiceFallbackMethod,
    voice_fallback_url: n.voiceFallbackUrl,
    voice_method: n.voiceMethod,
    voice_receive_mode: 'voice',
    voice_url: n.voiceUrl,
  };
}

export function serializeCall(c: TwilioCall) {
  const uri = `${accountUri(c.accountSid)}/Calls/${c.sid}`;
  const ended = c.endedAt !== undefined;
  return {
    account_sid: c.accountSid,
    annotation: null,
    answered_by: null,
    api_version: TWILIO_API_VERSION,
    caller_name: null,
    date_created: rfc2822(c.createdAt),
    date_updated: rfc2822(c.updatedAt),
    direction: 'outbound-api',
    duration: ended ? String(callDuration(c)) : null,
    end_time: c.endedAt ? rfc2822(c.endedAt) : null,
    forwarded_from: null,
    from: c.from,
    from_formatted: formatted(c.from),
    group_sid: null,
    parent_call_sid: null,
    phone_number_sid: c.phoneNumberSid,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: c.sid,
    start_time: c.answeredAt ? rfc2822(c.answeredAt) : null,
    status: c.status,
    subresource_uris: {
      notifications: `${uri}/Notifications.json`,
      recordings: `${uri}/Recordings.json`,
      payments: `${uri}/Payments.json`,
      events: `${uri}/Events.json`,
      siprec: `${uri}/Siprec.json`,
      streams: `${uri}/Streams.json`,
      user_defined_message_subscriptions: `${uri}/UserDefinedMessageSubscriptions.json`,
      user_defined_messages: `${uri}/UserDefinedMessages.json`,
    },
    to: c.to,
    to_formatted: formatted(c.to),
    trunk_sid: null,
    uri: `${uri}.json`,
  };
}

export function callDuration(c: TwilioCall, now = c.endedAt ?? new Date()): number {
  if (!c.answeredAt) return 0;
  return Math.max(1, Math.round((now.getTime() - c.answeredAt.getTime()) / 1000));
}

/** The StatusCallbackEvent that makes Twilio send a callback for this status. */
export function subscribedEvent(status: TwilioCallStatus): string {
  switch (status) {
    case 'queued':
    case 'initiated':
      return 'initiated';
    case 'ringing':
      return 'ringing';
    case 'in-progress':
      return 'answered';
    case 'completed':
    case 'busy':
    case 'failed':
    case 'no-answer':
    case 'canceled':
      return 'completed';
  }
}

export const SIP_RESPONSE: Partial<Record<TwilioCallStatus, string>> = {
  ringing: '180',
  'in-progress': '200',
  completed: '200',
  busy: '486',
  'no-answer': '487',
  canceled: '487',
  failed: '500',
};
