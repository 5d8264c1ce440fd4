export const INTEGRATIONS = ['provider_one', 'provider_two', 'provider_three'] as const;

/** provider_one = Plivo, provider_two = Twilio, provider_three = Telnyx (contract-additions §4). */
export type Integration = (typeof INTEGRATIONS)[number];

/** Plivo: auth id + auth token; Twilio: account SID + auth token; Telnyx: app id + API key. */
export interface ProviderCredentials {
  accountId: string;
  secret: string;
  /**
   * Telnyx: the account's Ed25519 public key (base64) that signs its callbacks, when the number
   * was added with one (kept in its own column, not sealed with the secret).
   */
  publicKey?: string;
}

/** Where the provider must send our number's callbacks (each URL carries the number's token). */
export interface CallbackUrls {
  answerUrl: string;
  statusUrl: string;
  /** Plivo application name / Telnyx Call Control Application name for this number. */
  applicationName: string;
}

export interface OwnedNumber {
  e164: string;
  /** Plivo: digits; Twilio: the PN sid; Telnyx: the phone number resource id. */
  providerNumberId: string;
}

export interface WebhookWiring {
  /** Plivo application id or Telnyx Call Control Application id (the app id); none for Twilio. */
  appId?: string;
}

/** One difference between the wiring we configured and what the provider now has. */
export interface WiringDrift {
  field: string;
  expected: string | null;
  actual: string | null;
}

export interface PlaceCallInput {
  from: string;
  to: string;
  urls: CallbackUrls;
  appId?: string;
  /** Echoed back in callbacks where the provider supports it (Telnyx client_state). */
  clientState?: string;
  ringTimeoutSeconds?: number;
  /** The provider ends the call after this long (the agent's maxCallSeconds). */
  timeLimitSeconds?: number;
  /** Record from the answer; the recording arrives by callback (call.recording.available). */
  record?: boolean;
  /** Ask the provider's answering-machine detection to tell a person from a machine. */
  machineDetection?: boolean;
}

/** Where a live call is transferred, and how each provider is told. */
export interface TransferTarget {
  /** +E.164 of the party that takes over. */
  to: string;
  /** Our calling number (+E.164), the caller id the new party sees. */
  from: string;
  /** Plivo `aleg_url`, Twilio `Url`: where the provider fetches the <Dial> (signed callback). */
  instructionsUrl: string;
  /** Telnyx `webhook_url`: where the new leg's events go (the call's status URL). */
  eventsUrl: string;
  /** Telnyx `client_state` of the new leg: the phone log id, as on the call itself. */
  clientState: string;
  /** How long the new party's phone rings before the provider gives up (Telnyx `timeout_secs`). */
  ringTimeoutSeconds: number;
}

/**
 * How long a transfer's new party may take to answer: Telnyx is told so on the transfer command,
 * Twilio and Plivo by the <Dial timeout> they fetch, and CallTransfers waits as long.
 */
export const TRANSFER_RING_SECONDS = 45;
/**
 * How much longer a warm transfer's new party may take once they picked up: they hear the brief
 * (at most 500 characters, about 35 s), then have 10 s to take the call.
 */
export const WARM_BRIEF_SECONDS = 50;

export interface InboundCallback {
  method: 'GET' | 'POST';
  /** The public URL as the provider called it, query included. */
  url: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
}

export type ProviderCallEvent =
  'call.started' | 'call.answered' | 'call.completed' | 'call.failed' | 'call.recording.available';

/** Where a callback (or fetchCall) says the call stands, in the phone log's callStatus words. */
export type CallbackCallStatus =
  'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

/** Who hung up, as far as the provider tells. */
export type HangupSide = 'us' | 'callee' | 'provider';

/** What a recording callback says about the file. */
export interface RecordingDetails {
  durationSeconds?: number;
  channels?: 'mono' | 'dual';
  /** MIME type of `recordingUrl`. */
  contentType?: string;
  /** How long the URL works, in seconds, when the provider limits it (Telnyx: 10 minutes). */
  validForSeconds?: number;
}

/**
 * What a transfer's <Dial> callback says (Twilio, Plivo; Telnyx reports the new leg as call
 * events on the status URL).
 */
export type TransferProgress =
  /** The new party picked up (Twilio's <Number> statusCallback, Plivo's Dial callbackUrl). */
  | { kind: 'answered' }
  /** The <Dial> is over (its `action`): whether anyone picked up, and the provider's word. */
  | { kind: 'ended'; answered: boolean; status: string }
  /** The key a warm transfer's colleague pressed after the brief (Twilio's <Gather action>). */
  | { kind: 'key'; digits: string };

export interface ParsedCallStatus {
  event: ProviderCallEvent | null;
  /**
   * The call's status this callback reports (provider words mapped per telephony-providers.md
   * §5); undefined when it reports none (a recording, a detection result, a speak event).
   */
  callStatus?: CallbackCallStatus;
  providerCallId?: string;
  /**
   * The id the live call goes by where it differs from the placed call's (Plivo: CallUUID, where
   * placeCall returned a request_uuid): its media stream names it, its REST actions take it.
   */
  liveCallId?: string;
  providerStatus: string;
  durationSeconds?: number;
  recordingUrl?: string;
  recording?: RecordingDetails;
  hangupCause?: string;
  hangupSide?: HangupSide;
  /** Telnyx call.gather.ended: the keys collected ('' when none). */
  digits?: string;
  clientState?: string;
  /** Answering-machine detection's verdict, normalised. */
  answeredBy?: 'human' | 'machine' | 'unknown';
  /** The verdict says a fax machine (Twilio `fax`, Telnyx `fax_detected`): no message, hang up. */
  fax?: boolean;
  /** The provider heard the machine's greeting end (its beep): leave the message now. */
  greetingEnded?: boolean;
  /** When the provider says it happened (ISO 8601), else undefined. */
  occurredAt?: string;
  /**
   * A final status that only a connected call gets (Telnyx `normal_clearing` / `time_limit`):
   * the call was answered, even if its answer callback has not arrived (callbacks reordered).
   */
  connected?: boolean;
}

/** A call placed through placeCall, as the dialer knows it when it asks the provider again. */
export interface PlacedCallRef {
  providerCallId: string;
  /** +E.164 the call was placed from and to. */
  from: string;
  to: string;
  /** When placeCall answered. */
  placedAt: Date;
}

export interface ProviderCallState {
  /** Still ringing or connected (or queued at the provider): no final status yet. */
  alive: boolean;
  /**
   * The normalised status when the provider tells it; undefined when it only says whether the
   * call is alive (Telnyx): the caller then decides from what it knows (was it answered?).
   */
  status?: CallbackCallStatus;
  /** The provider's own word, kept on the phone log. */
  providerStatus: string;
  durationSeconds?: number;
  answeredBy?: 'human' | 'machine' | 'unknown';
}

/** One telephony provider's REST protocol (contract-additions §4). */
export interface TelephonyProvider {
  readonly integration: Integration;
  validateCredentials(credentials: ProviderCredentials): Promise<void>;
  verifyNumberOwnership(credentials: ProviderCredentials, e164: string): Promise<OwnedNumber>;
  configureWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
  ): Promise<WebhookWiring>;
  /** What differs between the wiring the provider holds now and the one we configured. */
  inspectWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
    wiring: WebhookWiring,
  ): Promise<WiringDrift[]>;
  placeCall(
    credentials: ProviderCredentials,
    input: PlaceCallInput,
  ): Promise<{ providerCallId: string }>;
  /**
   * The call as the provider knows it now (reconciliation of an attempt whose callbacks never
   * came). A read: safe to repeat. ProviderError `not_found` when the provider has no such call.
   */
  fetchCall(credentials: ProviderCredentials, call: PlacedCallRef): Promise<ProviderCallState>;
  hangupCall(credentials: ProviderCredentials, providerCallId: string): Promise<void>;
  /**
   * Hands the live call to `target.to` (telephony-providers.md §5): the stream ends, the callee
   * stays on the line. Never retried: a timeout may have transferred it already.
   */
  transferCall(
    credentials: ProviderCredentials,
    providerCallId: string,
    target: TransferTarget,
  ): Promise<void>;
  /**
   * Presses `digits` (0-9, *, #) on the live call as telephone events (RFC 2833), which an IVR
   * hears whatever the codecs between; false where the provider has no such request (Twilio:
   * only TwiML, which would end the stream), and the caller plays them in band. Never retried,
   * and answered within KEY_PRESS_TIMEOUT_MS: an IVR waits for its keys.
   */
  sendDigits(
    credentials: ProviderCredentials,
    providerCallId: string,
    digits: string,
  ): Promise<boolean>;
  verifySignature(credentials: ProviderCredentials, callback: InboundCallback): boolean;
  parseStatusCallback(callback: InboundCallback): ParsedCallStatus;
  /** A transfer's <Dial> callback (`transfer-status`); null: not one this provider sends. */
  parseTransferCallback(callback: InboundCallback): TransferProgress | null;
}

/**
 * How long a key press request may take: an IVR menu times out within seconds. A timed-out
 * press may have happened, so it is not played again in band (keys twice choose wrong).
 */
export const KEY_PRESS_TIMEOUT_MS = 3_000;
