import { type AppConfig } from '../../../config';
import { isFaxVerdict, twilioAnsweredBy } from '../answered-by';
import { callbackFields, headerValue, recordingContentType, seconds } from '../callback-params';
import { ProviderError } from '../provider-error';
import { basicAuth, ProviderHttp, type ProviderHttpOptions } from '../provider-http';
import type {
  CallbackCallStatus,
  CallbackUrls,
  InboundCallback,
  OwnedNumber,
  ParsedCallStatus,
  PlaceCallInput,
  PlacedCallRef,
  ProviderCallEvent,
  ProviderCredentials,
  TelephonyProvider,
  TransferProgress,
  TransferTarget,
  WiringDrift,
} from '../telephony.types';
import { verifyTwilioSignature } from './twilio-signature';

interface TwilioNumber {
  sid: string;
  phone_number: string;
  voice_url: string | null;
  status_callback: string | null;
  voice_application_sid: string | null;
}

const STATUS_EVENTS: Record<string, ProviderCallEvent> = {
  queued: 'call.started',
  initiated: 'call.started',
  ringing: 'call.started',
  'in-progress': 'call.answered',
  completed: 'call.completed',
  busy: 'call.failed',
  failed: 'call.failed',
  'no-answer': 'call.failed',
  canceled: 'call.failed',
};

const CALL_STATUSES: Record<string, CallbackCallStatus> = {
  queued: 'queued',
  initiated: 'queued',
  ringing: 'ringing',
  'in-progress': 'in-progress',
  completed: 'completed',
  busy: 'busy',
  failed: 'failed',
  'no-answer': 'no-answer',
  canceled: 'canceled',
};

/** provider_two: Twilio's REST API (Basic auth SID:token, form bodies, `.json` paths). */
export class TwilioProvider implements TelephonyProvider {
  readonly integration = 'provider_two' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: AppConfig,
    httpOptions?: ProviderHttpOptions,
  ) {
    this.http = new ProviderHttp(
      'Twilio',
      (body) => (body as { message?: string } | undefined)?.message,
      httpOptions,
    );
  }

  async validateCredentials(credentials: ProviderCredentials): Promise<void> {
    const { body } = await this.http.request<{ status?: string }>({
      method: 'GET',
      url: this.accountUrl(credentials, '.json'),
      headers: auth(credentials),
      retry: true,
    });
    if (body.status !== 'active')
      throw new ProviderError('auth', `Twilio account is ${body.status ?? 'not active'}`);
  }

  async verifyNumberOwnership(
    credentials: ProviderCredentials,
    e164: string,
  ): Promise<OwnedNumber> {
    const query = new URLSearchParams({ PhoneNumber: e164, PageSize: '20' });
    const { body } = await this.http.request<{ incoming_phone_numbers?: TwilioNumber[] }>({
      method: 'GET',
      url: this.accountUrl(credentials, `/IncomingPhoneNumbers.json?${query.toString()}`),
      headers: auth(credentials),
      retry: true,
    });
    // The filter also matches partial numbers, so only an exact match proves ownership.
    const number = body.incoming_phone_numbers?.find(
      (candidate) => candidate.phone_number === e164,
    );
    if (!number) throw new ProviderError('not_owned', 'The number is not on this Twilio account');
    return { e164, providerNumberId: number.sid };
  }

  async configureWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
  ) {
    await this.http.request({
      method: 'POST',
      url: this.numberUrl(credentials, number),
      headers: auth(credentials),
      // An application sid would win over VoiceUrl, so it is cleared.
      form: {
        VoiceUrl: urls.answerUrl,
        VoiceMethod: 'POST',
        StatusCallback: urls.statusUrl,
        StatusCallbackMethod: 'POST',
        VoiceApplicationSid: '',
      },
      retry: true,
    });
    return {};
  }

  async inspectWebhooks(credentials: ProviderCredentials, number: OwnedNumber, urls: CallbackUrls) {
    const { body } = await this.http.request<TwilioNumber>({
      method: 'GET',
      url: this.numberUrl(credentials, number),
      headers: auth(credentials),
      retry: true,
    });
    const drift: WiringDrift[] = [];
    const compare = (field: string, expected: string | null, actual: string | null) => {
      if ((expected ?? '') !== (actual ?? '')) drift.push({ field, expected, actual });
    };
    compare('VoiceUrl', urls.answerUrl, body.voice_url);
    compare('StatusCallback', urls.statusUrl, body.status_callback);
    compare('VoiceApplicationSid', null, body.voice_application_sid);
    return drift;
  }

  async placeCall(credentials: ProviderCredentials, input: PlaceCallInput) {
    const { body } = await this.http.request<{ sid: string }>({
      method: 'POST',
      url: this.accountUrl(credentials, '/Calls.json'),
      headers: auth(credentials),
      form: {
        To: input.to,
        From: input.from,
        Url: input.urls.answerUrl,
        Method: 'POST',
        StatusCallback: input.urls.statusUrl,
        StatusCallbackMethod: 'POST',
        StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
        Timeout: input.ringTimeoutSeconds?.toString(),
        TimeLimit: input.timeLimitSeconds?.toString(),
        // Asynchronous detection: the call is answered and streams at once (no 2–5 s of silence
        // after the callee's "Hello?" while Twilio listens), and the verdict is posted to the
        // status URL (AnsweredBy, no CallStatus); a machine switches the live session to
        // voicemail (CallSignals), as Plivo's and Telnyx's verdicts do.
        ...(input.machineDetection
          ? {
              MachineDetection: 'Enable',
              AsyncAmd: 'true',
              AsyncAmdStatusCallback: input.urls.statusUrl,
              AsyncAmdStatusCallbackMethod: 'POST',
            }
          : {}),
        ...(input.record
          ? {
              Record: 'true',
              RecordingStatusCallback: input.urls.statusUrl,
              RecordingStatusCallbackMethod: 'POST',
              RecordingStatusCallbackEvent: 'completed',
            }
          : {}),
      },
    });
    return { providerCallId: body.sid };
  }

  async fetchCall(credentials: ProviderCredentials, { providerCallId }: PlacedCallRef) {
    const { body } = await this.http.request<{
      status: string;
      duration: string | null;
      answered_by: string | null;
    }>({
      method: 'GET',
      url: this.accountUrl(credentials, `/Calls/${encodeURIComponent(providerCallId)}.json`),
      headers: auth(credentials),
      retry: true,
    });
    const status = CALL_STATUSES[body.status] ?? 'failed';
    return {
      alive: ['queued', 'ringing', 'in-progress'].includes(status),
      status,
      providerStatus: body.status,
      durationSeconds: body.duration ? Number(body.duration) : undefined,
      answeredBy: twilioAnsweredBy(body.answered_by),
    };
  }

  async hangupCall(credentials: ProviderCredentials, providerCallId: string) {
    await this.http.request({
      method: 'POST',
      url: this.accountUrl(credentials, `/Calls/${encodeURIComponent(providerCallId)}.json`),
      headers: auth(credentials),
      form: { Status: 'completed' },
      retry: true,
    });
  }

  async transferCall(
    credentials: ProviderCredentials,
    providerCallId: string,
    target: TransferTarget,
  ) {
    // The call's TwiML is replaced: Twilio ends the <Connect><Stream> and fetches the <Dial>.
    await this.http.request({
      method: 'POST',
      url: this.accountUrl(credentials, `/Calls/${encodeURIComponent(providerCallId)}.json`),
      headers: auth(credentials),
      form: { Url: target.instructionsUrl, Method: 'POST' },
    });
  }

  /** Twilio has no request for it: `<Play digits>` would replace the stream's TwiML. */
  sendDigits(): Promise<boolean> {
    return Promise.resolve(false);
  }

  verifySignature(credentials: ProviderCredentials, callback: InboundCallback): boolean {
    return verifyTwilioSignature(
      credentials.secret,
      callback.url,
      callback.method === 'POST' ? callback.rawBody : '',
      headerValue(callback.headers, 'x-twilio-signature'),
    );
  }

  parseStatusCallback(callback: InboundCallback): ParsedCallStatus {
    const fields = callbackFields(callback);
    const status = fields.RecordingStatus
      ? `recording-${fields.RecordingStatus}`
      : (fields.CallStatus ?? '');
    const recordingDone = fields.RecordingStatus === 'completed' && fields.RecordingUrl;
    return {
      event: recordingDone
        ? 'call.recording.available'
        : (STATUS_EVENTS[fields.CallStatus ?? ''] ?? null),
      // A recording callback is about the file, not the call's progress.
      callStatus: fields.RecordingStatus ? undefined : CALL_STATUSES[fields.CallStatus ?? ''],
      providerCallId: fields.CallSid,
      providerStatus: status,
      durationSeconds: seconds(fields.CallDuration),
      recordingUrl: fields.RecordingUrl,
      recording: recordingDone
        ? {
            durationSeconds: seconds(fields.RecordingDuration),
            channels: fields.RecordingChannels === '2' ? 'dual' : 'mono',
            // A RecordingUrl without an extension serves WAV.
            contentType: recordingContentType(fields.RecordingUrl, 'audio/wav'),
          }
        : undefined,
      answeredBy: twilioAnsweredBy(fields.AnsweredBy),
      fax: isFaxVerdict(fields.AnsweredBy) || undefined,
      occurredAt: isoOf(fields.Timestamp),
    };
  }

  /**
   * The <Dial>'s `action` carries DialCallStatus (completed or answered: someone picked up;
   * busy, no-answer, failed, canceled); the dialed <Number>'s statusCallback reports the child
   * call (ParentCallSid) `in-progress` when it answers; a warm transfer's <Gather> on that call,
   * the key its party pressed (Digits).
   */
  parseTransferCallback(callback: InboundCallback): TransferProgress | null {
    const fields = callbackFields(callback);
    if (fields.Digits !== undefined) return { kind: 'key', digits: fields.Digits };
    const dial = fields.DialCallStatus;
    if (dial)
      return { kind: 'ended', answered: dial === 'completed' || dial === 'answered', status: dial };
    return fields.ParentCallSid && fields.CallStatus === 'in-progress'
      ? { kind: 'answered' }
      : null;
  }

  private accountUrl(credentials: ProviderCredentials, suffix: string): string {
    return `${this.config.telephony.providerTwoApiUrl}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountId)}${suffix}`;
  }

  private numberUrl(credentials: ProviderCredentials, number: OwnedNumber): string {
    return this.accountUrl(
      credentials,
      `/IncomingPhoneNumbers/${encodeURIComponent(number.providerNumberId)}.json`,
    );
  }
}

/** Twilio's `Timestamp` (RFC 2822) as ISO 8601; undefined when absent or unreadable. */
function isoOf(timestamp: string | undefined): string | undefined {
  const at = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}

const auth = (credentials: ProviderCredentials) =>
  basicAuth(credentials.accountId, credentials.secret);
