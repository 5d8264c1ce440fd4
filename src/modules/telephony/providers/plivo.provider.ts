import { type AppConfig } from '../../../config';
import { plivoAnsweredBy } from '../answered-by';
import { callbackFields, headerValue, recordingContentType, seconds } from '../callback-params';
import { ProviderError } from '../provider-error';
import { basicAuth, ProviderHttp, type ProviderHttpOptions } from '../provider-http';
import {
  KEY_PRESS_TIMEOUT_MS,
  type CallbackCallStatus,
  type CallbackUrls,
  type HangupSide,
  type InboundCallback,
  type OwnedNumber,
  type ParsedCallStatus,
  type PlaceCallInput,
  type PlacedCallRef,
  type ProviderCallEvent,
  type ProviderCallState,
  type ProviderCredentials,
  type TelephonyProvider,
  type WebhookWiring,
  type TransferProgress,
  type TransferTarget,
  type WiringDrift,
} from '../telephony.types';
import { verifyPlivoSignatureV3 } from './plivo-signature';

interface PlivoApplication {
  app_id: string;
  app_name: string;
  answer_url: string | null;
  hangup_url: string | null;
}

interface PlivoPage<T> {
  meta: { limit: number; offset: number; next: string | null; total_count: number };
  objects: T[];
}

/** `GET Call/{CallUUID}/?status=live`. */
interface PlivoLiveCall {
  call_status?: string;
  call_uuid: string;
  request_uuid?: string;
}

/** A CDR (`GET Call/`, the Call object). */
interface PlivoCallRecord {
  call_uuid: string;
  hangup_cause_name?: string;
  hangup_cause_code?: number | string;
  call_duration?: number | string;
  initiation_time?: string;
}

const PAGE_SIZE = 20;
const MAX_PAGES = 50;
// placedAt is taken when placeCall answered: up to its 10 s timeout after Plivo took the call.
const PLACEMENT_SLACK_MS = 15_000;

const STATUS_EVENTS: Record<string, ProviderCallEvent> = {
  ringing: 'call.started',
  'in-progress': 'call.answered',
  completed: 'call.completed',
  busy: 'call.failed',
  failed: 'call.failed',
  timeout: 'call.failed',
  'no-answer': 'call.failed',
  cancel: 'call.failed',
};

const CALL_STATUSES: Record<string, CallbackCallStatus> = {
  ringing: 'ringing',
  'in-progress': 'in-progress',
  completed: 'completed',
  busy: 'busy',
  failed: 'failed',
  timeout: 'no-answer',
  'no-answer': 'no-answer',
  cancel: 'canceled',
};

// HangupSource: who ended the call. On an outbound call the callee is the party we dialed; a
// hang-up by our answer XML or API request is ours.
const HANGUP_SIDES: Record<string, HangupSide> = {
  Callee: 'callee',
  Caller: 'us',
  'API Request': 'us',
  'Answer XML': 'us',
  Plivo: 'provider',
  Carrier: 'provider',
  Error: 'provider',
};

/** The outcome a Plivo hangup cause code means (docs …/voice/troubleshooting/hangup-causes). */
function plivoOutcome(code: string, durationSeconds: number): CallbackCallStatus {
  if (code === '3000') return 'busy';
  if (code === '3020' || code === '3030') return 'no-answer';
  if (code === '1000') return 'canceled';
  if (code.startsWith('4') || durationSeconds > 0) return 'completed';
  return 'failed';
}

/** provider_one: Plivo's REST API (Basic auth id:token, JSON bodies, numbers as digits). */
export class PlivoProvider implements TelephonyProvider {
  readonly integration = 'provider_one' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: AppConfig,
    httpOptions?: ProviderHttpOptions,
  ) {
    this.http = new ProviderHttp(
      'Plivo',
      (body) => (body as { error?: string } | undefined)?.error,
      httpOptions,
    );
  }

  async validateCredentials(credentials: ProviderCredentials): Promise<void> {
    await this.get(credentials, '');
  }

  async verifyNumberOwnership(
    credentials: ProviderCredentials,
    e164: string,
  ): Promise<OwnedNumber> {
    const digits = e164.replace(/^\+/, '');
    try {
      await this.get(credentials, `Number/${digits}/`);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') {
        throw new ProviderError('not_owned', 'The number is not on this Plivo account');
      }
      throw error;
    }
    return { e164, providerNumberId: digits };
  }

  /** Creates or reuses this number's Application, points it at our URLs and attaches the number. */
  async configureWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
  ) {
    const settings = {
      answer_url: urls.answerUrl,
      answer_method: 'POST',
      hangup_url: urls.statusUrl,
      hangup_method: 'POST',
    };
    const existing = await this.findApplication(credentials, urls.applicationName);
    let appId: string;
    if (existing) {
      appId = existing.app_id;
      await this.post(credentials, `Application/${appId}/`, settings);
    } else {
      const { body } = await this.post<{ app_id: string }>(credentials, 'Application/', {
        app_name: urls.applicationName,
        ...settings,
      });
      appId = body.app_id;
    }
    try {
      await this.post(credentials, `Number/${number.providerNumberId}/`, { app_id: appId });
    } catch (error) {
      // An application made for this set-up must not outlive it (best effort: the provider may be down).
      if (!existing) await this.deleteApplication(credentials, appId).catch(() => undefined);
      throw error;
    }
    return { appId };
  }

  async inspectWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
    wiring: WebhookWiring,
  ): Promise<WiringDrift[]> {
    const { body: numberBody } = await this.get<{ application: string | null }>(
      credentials,
      `Number/${number.providerNumberId}/`,
    );
    const attached = /\/Application\/([^/]+)\/?$/.exec(numberBody.application ?? '')?.[1] ?? null;
    const drift: WiringDrift[] = [];
    if (attached !== (wiring.appId ?? null)) {
      drift.push({ field: 'number.application', expected: wiring.appId ?? null, actual: attached });
    }
    if (!wiring.appId) return drift;
    try {
      const { body: app } = await this.get<PlivoApplication>(
        credentials,
        `Application/${wiring.appId}/`,
      );
      if (app.answer_url !== urls.answerUrl) {
        drift.push({
          field: 'application.answer_url',
          expected: urls.answerUrl,
          actual: app.answer_url,
        });
      }
      if (app.hangup_url !== urls.statusUrl) {
        drift.push({
          field: 'application.hangup_url',
          expected: urls.statusUrl,
          actual: app.hangup_url,
        });
      }
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === 'not_found')) throw error;
      drift.push({ field: 'application', expected: wiring.appId, actual: null });
    }
    return drift;
  }

  async placeCall(credentials: ProviderCredentials, input: PlaceCallInput) {
    // No retry: a repeated request could dial twice.
    const { body } = await this.http.request<{ request_uuid: string }>({
      method: 'POST',
      url: this.url(credentials, 'Call/'),
      headers: auth(credentials),
      json: {
        from: input.from.replace(/^\+/, ''),
        to: input.to.replace(/^\+/, ''),
        answer_url: input.urls.answerUrl,
        answer_method: 'POST',
        ring_url: input.urls.statusUrl,
        hangup_url: input.urls.statusUrl,
        hangup_method: 'POST',
        ring_timeout: input.ringTimeoutSeconds,
        time_limit: input.timeLimitSeconds,
        // Asynchronous detection: the call is answered at once and Plivo posts its verdict
        // (Event=MachineDetection, Machine=true|false) to the status URL; a machine heard after
        // the stream started switches the live session to voicemail (CallSignals). Recording
        // is asked for in the answer XML (<Record>), where its callback URL is given.
        ...(input.machineDetection
          ? {
              machine_detection: 'true',
              machine_detection_url: input.urls.statusUrl,
              machine_detection_method: 'POST',
            }
          : {}),
      },
    });
    return { providerCallId: body.request_uuid };
  }

  /**
   * Plivo knows a placed call by its request_uuid only while queued (`GET Call/{id}/?status=queued`);
   * from the dial on it is a CallUUID: a live call (`GET Call/?status=live` by our numbers, then
   * each one's `request_uuid`), then a CDR (`GET Call/` by our numbers). Looked for in the order a
   * call moves through them, so one that moves on mid-lookup is found at the next step.
   */
  async fetchCall(
    credentials: ProviderCredentials,
    call: PlacedCallRef,
  ): Promise<ProviderCallState> {
    const id = encodeURIComponent(call.providerCallId);
    if (await this.find(credentials, `Call/${id}/?status=queued`)) {
      return { alive: true, status: 'queued', providerStatus: 'queued' };
    }
    const live = await this.findLive(credentials, call);
    if (live) {
      const status: CallbackCallStatus = live.call_status === 'ringing' ? 'ringing' : 'in-progress';
      return { alive: true, status, providerStatus: live.call_status ?? status };
    }
    const record = await this.findRecord(credentials, call);
    if (!record) throw new ProviderError('not_found', 'Plivo has no such call');
    const code = String(record.hangup_cause_code ?? '');
    const duration = Number(record.call_duration ?? 0);
    return {
      alive: false,
      status: plivoOutcome(code, duration),
      providerStatus: record.hangup_cause_name ?? code,
      durationSeconds: duration,
    };
  }

  private async findLive(credentials: ProviderCredentials, call: PlacedCallRef) {
    const list = await this.find<{ calls?: string[] }>(
      credentials,
      `Call/?status=live&${numbersQuery(call)}`,
    );
    for (const callUuid of list?.calls ?? []) {
      const live = await this.find<PlivoLiveCall>(
        credentials,
        `Call/${encodeURIComponent(callUuid)}/?status=live`,
      );
      if (live?.request_uuid === call.providerCallId) return live;
    }
    return undefined;
  }

  /**
   * CDRs carry no request_uuid: ours is the one between these numbers that ended after the
   * placement (less the request's timeout) and started nearest to it.
   */
  private async findRecord(credentials: ProviderCredentials, call: PlacedCallRef) {
    const since = plivoTime(new Date(call.placedAt.getTime() - PLACEMENT_SLACK_MS));
    const page = await this.find<PlivoPage<PlivoCallRecord>>(
      credentials,
      `Call/?${numbersQuery(call)}&end_time__gte=${encodeURIComponent(since)}&limit=${PAGE_SIZE}`,
    );
    const distance = (record: PlivoCallRecord) =>
      Math.abs(plivoDate(record.initiation_time) - call.placedAt.getTime());
    return [...(page?.objects ?? [])].sort((a, b) => distance(a) - distance(b))[0];
  }

  async hangupCall(credentials: ProviderCredentials, providerCallId: string) {
    await this.http.request({
      method: 'DELETE',
      url: this.url(credentials, `Call/${encodeURIComponent(providerCallId)}/`),
      headers: auth(credentials),
      retry: true,
    });
  }

  async transferCall(
    credentials: ProviderCredentials,
    providerCallId: string,
    target: TransferTarget,
  ) {
    // The A leg (the callee) leaves the stream's XML for the <Dial> fetched from aleg_url. Not
    // retried: a transfer that timed out may have happened.
    await this.http.request({
      method: 'POST',
      url: this.url(credentials, `Call/${encodeURIComponent(providerCallId)}/`),
      headers: auth(credentials),
      json: { legs: 'aleg', aleg_url: target.instructionsUrl, aleg_method: 'POST' },
    });
  }

  /** `POST Call/{uuid}/DTMF/` on the A leg (the callee's). */
  async sendDigits(credentials: ProviderCredentials, providerCallId: string, digits: string) {
    await this.http.request({
      method: 'POST',
      url: this.url(credentials, `Call/${encodeURIComponent(providerCallId)}/DTMF/`),
      headers: auth(credentials),
      json: { digits, legs: 'aleg' },
      timeoutMs: KEY_PRESS_TIMEOUT_MS,
    });
    return true;
  }

  verifySignature(credentials: ProviderCredentials, callback: InboundCallback): boolean {
    return verifyPlivoSignatureV3(
      credentials.secret,
      callback.method,
      callback.url,
      callback.rawBody,
      headerValue(callback.headers, 'x-plivo-signature-v3-nonce'),
      headerValue(callback.headers, 'x-plivo-signature-v3'),
    );
  }

  parseStatusCallback(callback: InboundCallback): ParsedCallStatus {
    const fields = callbackFields(callback);
    const recordingUrl = fields.RecordUrl ?? fields.record_url;
    // A hangup that Plivo itself canceled (cause 1000) never connected.
    const canceled = fields.CallStatus === 'completed' && fields.HangupCauseCode === '1000';
    const callStatus = recordingUrl
      ? undefined
      : canceled
        ? 'canceled'
        : CALL_STATUSES[fields.CallStatus ?? ''];
    return {
      event: recordingUrl
        ? 'call.recording.available'
        : canceled
          ? 'call.failed'
          : (STATUS_EVENTS[fields.CallStatus ?? ''] ?? null),
      callStatus,
      // placeCall returns the request_uuid; callbacks carry it as ALegRequestUUID (CallUUID is new).
      providerCallId:
        fields.ALegRequestUUID || fields.RequestUUID || fields.CallUUID || fields.call_uuid,
      liveCallId: fields.CallUUID || fields.call_uuid || undefined,
      providerStatus: fields.CallStatus ?? (recordingUrl ? 'recording' : ''),
      durationSeconds: seconds(fields.Duration),
      recordingUrl,
      recording: recordingUrl
        ? {
            durationSeconds: seconds(fields.RecordingDuration),
            channels: 'mono',
            contentType: recordingContentType(recordingUrl, 'audio/mpeg'),
          }
        : undefined,
      hangupCause: fields.HangupCauseName,
      hangupSide: HANGUP_SIDES[fields.HangupSource ?? ''],
      answeredBy: plivoAnsweredBy(fields.Machine),
    };
  }

  /**
   * The <Dial>'s `action` carries DialStatus (completed: the new party answered and the bridge
   * is over; busy, failed, timeout, no-answer); its callbackUrl, DialAction `answer` when the
   * new party picks up.
   */
  parseTransferCallback(callback: InboundCallback): TransferProgress | null {
    const fields = callbackFields(callback);
    const dial = fields.DialStatus;
    if (dial) return { kind: 'ended', answered: dial === 'completed', status: dial };
    return fields.DialAction === 'answer' ? { kind: 'answered' } : null;
  }

  private async findApplication(credentials: ProviderCredentials, name: string) {
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const { body } = await this.get<PlivoPage<PlivoApplication>>(
        credentials,
        `Application/?limit=${PAGE_SIZE}&offset=${page * PAGE_SIZE}`,
      );
      const match = body.objects.find((app) => app.app_name === name);
      if (match) return match;
      if (!body.meta.next || body.objects.length < PAGE_SIZE) return undefined;
    }
    return undefined;
  }

  private async deleteApplication(credentials: ProviderCredentials, appId: string) {
    await this.http.request({
      method: 'DELETE',
      url: this.url(credentials, `Application/${encodeURIComponent(appId)}/`),
      headers: auth(credentials),
      retry: true,
    });
  }

  /** The resource, or undefined where Plivo answers 404. */
  private async find<T>(credentials: ProviderCredentials, path: string): Promise<T | undefined> {
    try {
      return (await this.get<T>(credentials, path)).body;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  private get<T>(credentials: ProviderCredentials, path: string) {
    return this.http.request<T>({
      method: 'GET',
      url: this.url(credentials, path),
      headers: auth(credentials),
      retry: true,
    });
  }

  private post<T>(credentials: ProviderCredentials, path: string, json: unknown) {
    return this.http.request<T>({
      method: 'POST',
      url: this.url(credentials, path),
      headers: auth(credentials),
      json,
      retry: true,
    });
  }

  private url(credentials: ProviderCredentials, path: string): string {
    return `${this.config.telephony.providerOneApiUrl}/v1/Account/${encodeURIComponent(credentials.accountId)}/${path}`;
  }
}

/** Plivo's filters take numbers as digits. */
const numbersQuery = (call: PlacedCallRef): string =>
  `call_direction=outbound&from_number=${call.from.replace(/^\+/, '')}` +
  `&to_number=${call.to.replace(/^\+/, '')}`;

/** `YYYY-MM-DD HH:MM:SS`, UTC: the form Plivo's time filters take. */
const plivoTime = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

/** A CDR time (`2022-10-12 21:57:40+05:30`) in ms; Infinity when missing or unreadable. */
function plivoDate(value: string | undefined): number {
  const ms = value ? Date.parse(value.replace(' ', 'T')) : NaN;
  return Number.isNaN(ms) ? Infinity : ms;
}

const auth = (credentials: ProviderCredentials) =>
  basicAuth(credentials.accountId, credentials.secret);
