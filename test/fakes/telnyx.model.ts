import { randomDigits, type FakeResponse } from './http-fake';
import type { Ed25519KeyPair } from './signatures';

/** Telnyx state the tests read and change directly ("behind Switchboard's back"). */
export interface TelnyxAccount {
  apiKey: string;
  balance: string;
  /** Signs the webhooks of this account's calls; `publicKey` is its Mission Control "Public Key". */
  keyPair: Ed25519KeyPair;
  /** Keyed by the numeric id the API uses in `/v2/phone_numbers/{id}`. */
  numbers: Map<string, TelnyxNumber>;
  /** Call Control Applications, keyed by id (the connection_id / Switchboard's "app id"). */
  applications: Map<string, TelnyxApplication>;
  outboundVoiceProfiles: Map<string, TelnyxOutboundVoiceProfile>;
}

export interface TelnyxNumber {
  id: string;
  /** +E.164 */
  phoneNumber: string;
  status: 'active' | 'purchase-pending' | 'port-pending' | 'deleted' | 'emergency-only';
  connectionId: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface TelnyxApplication {
  id: string;
  applicationName: string;
  webhookEventUrl: string;
  webhookEventFailoverUrl: string | null;
  webhookApiVersion: '1' | '2';
  webhookTimeoutSecs: number | null;
  active: boolean;
  callCostInWebhooks: boolean;
  firstCommandTimeout: boolean;
  firstCommandTimeoutSecs: number;
  dtmfType: string;
  anchorsiteOverride: string;
  inbound: { channelLimit: number | null; shakenStirEnabled: boolean; sipSubdomain: string | null };
  /** Outbound calls on this app need an outbound voice profile. */
  outbound: { channelLimit: number | null; outboundVoiceProfileId: string | null };
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface TelnyxOutboundVoiceProfile {
  id: string;
  name: string;
  enabled: boolean;
  createdAt: Date;
}

export interface TelnyxCall {
  callControlId: string;
  callLegId: string;
  callSessionId: string;
  apiKey: string;
  connectionId: string;
  from: string;
  to: string;
  /** `webhook_url` given on dial; otherwise events go to the app's current webhook_event_url. */
  webhookUrl?: string;
  /** base64, echoed in every webhook; a later action's client_state replaces it. */
  clientState: string | null;
  /** The whole `POST /v2/calls` body as sent. */
  params: unknown;
  state: 'dialing' | 'initiated' | 'answered' | 'hangup';
  createdAt: Date;
  answeredAt?: Date;
  endedAt?: Date;
  /** `POST /v2/calls/{id}/actions/{action}` received, in order. */
  actions: Array<{ action: string; body: unknown }>;
  hangupRequested: boolean;
  /** Telnyx forgets an ended call about 10 minutes after its end: GET answers 404 then. */
  forgotten?: boolean;
}

export interface TelnyxWebhook {
  data: {
    id: string;
    event_type: string;
    occurred_at: string;
    record_type: 'event';
    payload: Record<string, unknown>;
  };
  meta: { attempt: number; delivered_to: string };
}

/** What the API handlers and the fake share. */
export interface TelnyxState {
  /** Keyed by API key. */
  accounts: Map<string, TelnyxAccount>;
  /** Keyed by call_control_id. */
  calls: Map<string, TelnyxCall>;
  /** Told of every accepted call (auto-progress). */
  placed?: (callControlId: string, to: string) => void;
}

/** Telnyx's error body: `{errors:[{code, title, detail, source?:{pointer}}]}`. */
export function telnyxError(
  status: number,
  code: string,
  title: string,
  detail: string,
  pointer?: string,
): FakeResponse {
  const error = { code, title, detail, ...(pointer ? { source: { pointer } } : {}) };
  return { status, body: { errors: [error] } };
}

const ERRORS: Record<number, [string, string, string]> = {
  400: ['10015', 'Bad Request', 'The request failed because it was not well-formed.'],
  401: [
    '10009',
    'Authentication failed',
    'The required authentication headers were either invalid or not included in the request.',
  ],
  403: [
    '10010',
    'Authorization failed',
    'You do not have permission to perform the requested action on the specified resource or resources.',
  ],
  404: ['10005', 'Resource not found', 'The requested resource or URL could not be found.'],
  405: ['10015', 'Bad Request', 'The request method is not supported for this resource.'],
  415: [
    '10014',
    'Unsupported Media Type',
    'The request failed because the server does not support the media type.',
  ],
  429: ['10011', 'Too many requests', 'You have exceeded the maximum number of allowed requests.'],
  500: ['10007', 'Unexpected error', 'An unexpected error occured.'],
  503: ['10007', 'Unexpected error', 'An unexpected error occured.'],
};

/** The generic error for an HTTP status; a 429 carries `x-ratelimit-*` headers. */
export function telnyxErrorFor(
  status: number,
  message?: string,
  retryAfter?: number,
): FakeResponse {
  const [code, title, detail] = ERRORS[status] ?? ['10007', 'Unexpected error', 'Error'];
  const response = telnyxError(status, code, title, message ?? detail);
  if (status === 429)
    response.headers = {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      // Seconds until the window resets, as Telnyx documents it.
      'x-ratelimit-reset': String(retryAfter ?? 1),
    };
  return response;
}

/** The specific errors the handlers answer (codes from Telnyx's error catalogue). */
export const TELNYX_ERRORS = {
  missing: (name: string) =>
    telnyxError(
      422,
      '10004',
      'Missing required parameter',
      `The '${name}' parameter is required.`,
      `/${name}`,
    ),
  invalidUrl: (pointer: string) =>
    telnyxError(
      422,
      '10003',
      'Invalid URL',
      'The URL provided was invalid, malformed, or too long.',
      pointer,
    ),
  noSuchAssociation: (pointer: string) =>
    telnyxError(
      422,
      '10017',
      'Associated resource does not exist',
      'The requested parameter is invalid as the associated resource does not exist.',
      pointer,
    ),
  notE164: (pointer: string) =>
    telnyxError(
      422,
      '10016',
      'Phone number must be in +E.164 format',
      'The specified phone number parameter must be in +E.164 format.',
      pointer,
    ),
  notString: (pointer: string) =>
    telnyxError(
      422,
      '10020',
      'Invalid resource type',
      "The requested parameter must be of type 'string'",
      pointer,
    ),
  badRequest: (detail: string, pointer?: string, status = 400) =>
    telnyxError(status, '10015', 'Bad Request', detail, pointer),
  callEnded: () =>
    telnyxError(
      422,
      '90018',
      'Call has already ended',
      "This call is no longer active and can't receive commands.",
    ),
};

export function createApplication(
  account: TelnyxAccount,
  init: Partial<TelnyxApplication> & Pick<TelnyxApplication, 'applicationName' | 'webhookEventUrl'>,
): TelnyxApplication {
  const now = new Date();
  const app: TelnyxApplication = {
    id: randomDigits(19),
    webhookEventFailoverUrl: null,
    webhookApiVersion: '2',
    webhookTimeoutSecs: null,
    active: true,
    callCostInWebhooks: false,
    firstCommandTimeout: false,
    firstCommandTimeoutSecs: 30,
    dtmfType: 'RFC 2833',
    anchorsiteOverride: 'Latency',
    inbound: { channelLimit: null, shakenStirEnabled: false, sipSubdomain: null },
    outbound: { channelLimit: null, outboundVoiceProfileId: null },
    tags: [],
    createdAt: now,
    updatedAt: now,
    ...init,
  };
  account.applications.set(app.id, app);
  return app;
}

const iso = (d: Date) => d.toISOString();

export function serializeNumber(n: TelnyxNumber, connectionName: string | null) {
  return {
    id: n.id,
    record_type: 'phone_number',
    phone_number: n.phoneNumber,
    status: n.status,
    tags: [...n.tags],
    external_pin: null,
    connection_id: n.connectionId,
    connection_name: connectionName,
    customer_reference: null,
    messaging_profile_id: null,
    messaging_profile_name: null,
    billing_group_id: null,
    emergency_enabled: false,
    emergency_address_id: null,
    emergency_status: 'disabled',
    call_forwarding_enabled: true,
    cnam_listing_enabled: false,
    caller_id_name_enabled: false,
    call_recording_enabled: false,
    t38_fax_gateway_enabled: true,
    hd_voice_enabled: false,
    inbound_call_screening: 'disabled',
    deletion_lock_enabled: false,
    phone_number_type: 'local',
    country_iso_alpha2: 'US',
    source_type: 'number_order',
    purchased_at: iso(n.createdAt),
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
  };
}

export function serializeApplication(a: TelnyxApplication) {
  return {
    id: a.id,
    record_type: 'call_control_application',
    active: a.active,
    anchorsite_override: a.anchorsiteOverride,
    application_name: a.applicationName,
    call_cost_in_webhooks: a.callCostInWebhooks,
    dtmf_type: a.dtmfType,
    first_command_timeout: a.firstCommandTimeout,
    first_command_timeout_secs: a.firstCommandTimeoutSecs,
    inbound: {
      channel_limit: a.inbound.channelLimit,
      shaken_stir_enabled: a.inbound.shakenStirEnabled,
      sip_subdomain: a.inbound.sipSubdomain,
      sip_subdomain_receive_settings: 'from_anyone',
    },
    outbound: {
      channel_limit: a.outbound.channelLimit,
      outbound_voice_profile_id: a.outbound.outboundVoiceProfileId,
    },
    redact_dtmf_debug_logging: false,
    tags: [...a.tags],
    webhook_api_version: a.webhookApiVersion,
    webhook_event_failover_url: a.webhookEventFailoverUrl,
    webhook_event_url: a.webhookEventUrl,
    webhook_timeout_secs: a.webhookTimeoutSecs,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export function serializeProfile(p: TelnyxOutboundVoiceProfile, connectionsCount: number) {
  return {
    id: p.id,
    record_type: 'outbound_voice_profile',
    name: p.name,
    enabled: p.enabled,
    connections_count: connectionsCount,
    traffic_type: 'conversational',
    service_plan: 'global',
    usage_payment_method: 'rate-deck',
    concurrent_call_limit: null,
    whitelisted_destinations: ['US', 'CA'],
    max_destination_rate: null,
    daily_spend_limit: null,
    daily_spend_limit_enabled: false,
    billing_group_id: null,
    tags: [],
    created_at: iso(p.createdAt),
    updated_at: iso(p.createdAt),
  };
}

/** `{data, meta{page_number,page_size,total_pages,total_results}}`. */
export function telnyxPage<T>(items: T[], pageNumber: number, pageSize: number) {
  const start = (pageNumber - 1) * pageSize;
  return {
    data: items.slice(start, start + pageSize),
    meta: {
      page_number: pageNumber,
      page_size: pageSize,
      total_pages: Math.max(1, Math.ceil(items.length / pageSize)),
      total_results: items.length,
    },
  };
}
