import { newApiId, randomDigits, type CallbackDelivery, type FakeResponse } from './http-fake';

/** Plivo state the tests read and change directly ("behind Switchboard's back"). */
export interface PlivoAccount {
  authId: string;
  authToken: string;
  name: string;
  cashCredits: string;
  /** Keyed by digits without `+`. */
  numbers: Map<string, PlivoNumber>;
  applications: Map<string, PlivoApplication>;
}

export interface PlivoNumber {
  /** Digits without `+`, as Plivo writes numbers. */
  number: string;
  alias: string | null;
  /** The attached Application, or null when none is. */
  appId: string | null;
  voiceEnabled: boolean;
  smsEnabled: boolean;
  numberType: 'local' | 'mobile' | 'tollfree' | 'national' | 'fixed';
  region: string;
  addedOn: string;
}

export interface PlivoApplication {
  appId: string;
  appName: string;
  answerUrl: string;
  answerMethod: string;
  hangupUrl: string;
  hangupMethod: string;
  fallbackAnswerUrl: string;
  fallbackMethod: string;
  messageUrl: string;
  messageMethod: string;
  defaultNumberApp: boolean;
  defaultEndpointApp: boolean;
  enabled: boolean;
  logIncomingMessages: boolean;
  subAccount: string | null;
}

/** CallStatus values Plivo sends: ring_url, answer_url, then hangup_url. */
export type PlivoCallStatus =
  'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'timeout' | 'no-answer' | 'cancel';

export interface PlivoCall {
  /** Returned by `POST Call/`; the only id Switchboard knows before the first callback. */
  requestUuid: string;
  /** First seen by Switchboard in the callbacks. */
  callUuid: string;
  authId: string;
  from: string;
  to: string;
  answerUrl: string;
  answerMethod: 'GET' | 'POST';
  ringUrl?: string;
  ringMethod: 'GET' | 'POST';
  /** Defaults to answer_url, as at Plivo. */
  hangupUrl: string;
  hangupMethod: 'GET' | 'POST';
  /** The whole `POST Call/` body as sent. */
  params: unknown;
  status: 'queued' | PlivoCallStatus;
  createdAt: Date;
  answeredAt?: Date;
  endedAt?: Date;
  /**
   * Set by `DELETE Call/{CallUUID}/` (or `Request/{request_uuid}/`); the hangup callback is sent
   * by advanceCall.
   */
  hangupRequested: boolean;
  /** Bodies of `POST Call/{CallUUID}/` (transfer). */
  transfers: unknown[];
  /** Digits of `POST Call/{CallUUID}/DTMF/`, one entry a request. */
  digitsSent: string[];
  /** The answer_url fetch made when the call was answered (expects 200 Plivo XML). */
  answerFetch?: CallbackDelivery;
  /** The fetch of the last transfer's aleg_url (fetchTransfer): the A leg's new XML. */
  transferFetch?: CallbackDelivery;
  /** The B leg the transfer's <Dial> bridged, once it answered (dialedAnswered). */
  dialedUuid?: string;
  /** The post to the <Dial>'s `action` when it ended (dialEnded): what the A leg hears next. */
  dialActionFetch?: CallbackDelivery;
  /** The fetch of the <Dial>'s confirmSound on the answered B leg (fetchConfirmSound). */
  confirmSoundFetch?: CallbackDelivery;
}

/** What the API handlers and the fake share. */
export interface PlivoState {
  accounts: Map<string, PlivoAccount>;
  /** Keyed by request_uuid. */
  calls: Map<string, PlivoCall>;
  /** Told of every accepted call (auto-progress). */
  placed?: (requestUuid: string, to: string) => void;
}

export const plivoDigits = (number: string): string => number.replace(/^\+/, '');

const ERRORS: Record<number, string> = {
  400: 'invalid request',
  401: 'authentication failed',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  429: 'too many requests',
  500: 'server error',
  503: 'service unavailable',
};

/** Plivo's error response: `{api_id, error}`, plus Retry-After on a 429 when given. */
export function plivoError(status: number, message?: string, retryAfter?: number): FakeResponse {
  return {
    status,
    body: { api_id: newApiId(), error: message ?? ERRORS[status] ?? 'error' },
    headers: status === 429 && retryAfter !== undefined ? { 'Retry-After': `${retryAfter}` } : {},
  };
}

export function createApplication(
  account: PlivoAccount,
  init: Partial<PlivoApplication> & Pick<PlivoApplication, 'appName' | 'answerUrl'>,
): PlivoApplication {
  const app: PlivoApplication = {
    appId: randomDigits(20),
    answerMethod: 'POST',
    hangupUrl: init.answerUrl,
    hangupMethod: 'POST',
    fallbackAnswerUrl: '',
    fallbackMethod: 'POST',
    messageUrl: '',
    messageMethod: 'POST',
    defaultNumberApp: false,
    defaultEndpointApp: false,
    enabled: true,
    logIncomingMessages: true,
    subAccount: null,
    ...init,
  };
  account.applications.set(app.appId, app);
  return app;
}

export function serializeApplication(authId: string, app: PlivoApplication) {
  return {
    answer_method: app.answerMethod,
    answer_url: app.answerUrl,
    app_id: app.appId,
    app_name: app.appName,
    application_type: 'XML',
    default_app: app.defaultNumberApp,
    default_endpoint_app: app.defaultEndpointApp,
    enabled: app.enabled,
    fallback_answer_url: app.fallbackAnswerUrl,
    fallback_method: app.fallbackMethod,
    hangup_method: app.hangupMethod,
    hangup_url: app.hangupUrl,
    log_incoming_messages: app.logIncomingMessages,
    message_method: app.messageMethod,
    message_url: app.messageUrl,
    public_uri: false,
    resource_uri: `/v1/Account/${authId}/Application/${app.appId}/`,
    sip_uri: `sip:${app.appId}@app.plivo.com`,
    sub_account: app.subAccount,
  };
}

export function serializeNumber(authId: string, n: PlivoNumber) {
  return {
    added_on: n.addedOn,
    alias: n.alias,
    application: n.appId === null ? null : `/v1/Account/${authId}/Application/${n.appId}/`,
    carrier: 'Plivo',
    monthly_rental_rate: '0.50000',
    number: n.number,
    number_type: n.numberType,
    region: n.region,
    resource_uri: `/v1/Account/${authId}/Number/${n.number}/`,
    sms_enabled: n.smsEnabled,
    sms_rate: '0.00000',
    sub_account: null,
    voice_enabled: n.voiceEnabled,
    voice_rate: '0.00850',
  };
}

/** Plivo list envelope: `{api_id, meta{limit,next,offset,previous,total_count}, objects}`. */
export function plivoPage<T>(
  apiId: string,
  listPath: string,
  items: T[],
  limit: number,
  offset: number,
  extraQuery = '',
) {
  const page = (o: number) => `${listPath}?limit=${limit}&offset=${o}${extraQuery}`;
  return {
    api_id: apiId,
    meta: {
      limit,
      next: offset + limit < items.length ? page(offset + limit) : null,
      offset,
      previous: offset > 0 ? page(Math.max(0, offset - limit)) : null,
      total_count: items.length,
    },
    objects: items.slice(offset, offset + limit),
  };
}

/** Hangup details per final CallStatus (codes from Plivo's hangup-causes table; 3xxx unverified). */
export const PLIVO_HANGUP: Record<
  Exclude<PlivoCallStatus, 'ringing' | 'in-progress'>,
  { cause: string; name: string; code: string; source: string }
> = {
  completed: { cause: 'NORMAL_CLEARING', name: 'Normal Hangup', code: '4000', source: 'Callee' },
  busy: { cause: 'USER_BUSY', name: 'Busy Line', code: '3000', source: 'Callee' },
  'no-answer': { cause: 'NO_ANSWER', name: 'No Answer', code: '3020', source: 'Carrier' },
  timeout: {
    cause: 'ALLOTTED_TIMEOUT',
    name: 'Ring Timeout Reached',
    code: '3030',
    source: 'Plivo',
  },
  failed: {
    cause: 'UNALLOCATED_NUMBER',
    name: 'Invalid Destination Address',
    code: '2000',
    source: 'Carrier',
  },
  cancel: { cause: 'ORIGINATOR_CANCEL', name: 'Canceled', code: '1000', source: 'API Request' },
};

/** `2024-01-31 12:00:00`, the form Plivo uses for StartTime/AnswerTime/EndTime. */
export const plivoTime = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');
