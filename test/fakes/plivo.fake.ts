import { randomUUID } from 'node:crypto';
import {
  HttpFake,
  appendQuery,
  encodeForm,
  field,
  randomAlnum,
  type AutoOutcome,
  type CallbackDelivery,
  type DeliveryOptions,
  type FakeResponse,
  type FormBody,
} from './http-fake';
import { elementAttribute, plivoXmlStream, type StreamInstructions } from './media-stream-caller';
import { registerPlivoApi } from './plivo.api';
import {
  PLIVO_HANGUP,
  createApplication,
  plivoDigits,
  plivoError,
  plivoTime,
  type PlivoAccount,
  type PlivoApplication,
  type PlivoCall,
  type PlivoCallStatus,
  type PlivoNumber,
} from './plivo.model';
import { plivoNonce, plivoV3Signature } from './signatures';

interface Sent {
  kind: CallbackDelivery['kind'];
  event: string;
  url: string;
  method: 'GET' | 'POST';
  params: FormBody;
}

/**
 * Plivo's REST API (`https://api.plivo.com`, under `/v1/Account/{authId}/`): Basic auth, JSON
 * or form bodies, `{api_id, error}` errors, Applications carrying webhook URLs, and V3-signed
 * form callbacks to the URLs a call was placed with.
 */
export class PlivoFake extends HttpFake {
  readonly accounts = new Map<string, PlivoAccount>();
  private readonly callsById = new Map<string, PlivoCall>();
  private readonly lastSent = new Map<string, Sent>();

  static async start(): Promise<PlivoFake> {
    const fake = new PlivoFake();
    await fake.listen();
    return fake;
  }

  private constructor() {
    super();
    const state = {
      accounts: this.accounts,
      calls: this.callsById,
      placed: (id: string, to: string) => this.callPlaced(id, to),
    };
    registerPlivoApi((method, template, handler) => this.route(method, template, handler), state);
  }

  // ------------------------------------------------------------ seeding and state

  addAccount(
    init: Partial<Pick<PlivoAccount, 'authId' | 'authToken' | 'name'>> = {},
  ): PlivoAccount {
    const account: PlivoAccount = {
      authId: init.authId ?? `MA${randomAlnum(18)}`,
      authToken:
        init.authToken ?? randomAlnum(40, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789'),
      name: init.name ?? 'Switchboard Test',
      cashCredits: '10.00000',
      numbers: new Map(),
      applications: new Map(),
    };
    this.accounts.set(account.authId, account);
    return account;
  }

  /** Owns `number` (`+` optional) on the account; voice enabled and unattached by default. */
  addNumber(
    account: PlivoAccount | string,
    number: string,
    options: Partial<Omit<PlivoNumber, 'number'>> = {},
  ): PlivoNumber {
    const owner = this.account(account);
    const entry: PlivoNumber = {
      number: plivoDigits(number),
      alias: null,
      appId: null,
      voiceEnabled: true,
      smsEnabled: true,
      numberType: 'local',
      region: 'California, UNITED STATES',
      addedOn: new Date().toISOString().slice(0, 10),
      ...options,
    };
    owner.numbers.set(entry.number, entry);
    return entry;
  }

  addApplication(
    account: PlivoAccount | string,
    init: Partial<PlivoApplication> & Pick<PlivoApplication, 'appName' | 'answerUrl'>,
  ): PlivoApplication {
    return createApplication(this.account(account), init);
  }

  account(account: PlivoAccount | string): PlivoAccount {
    const found = typeof account === 'string' ? this.accounts.get(account) : account;
    if (!found)
      throw new Error(`no Plivo account ${typeof account === 'string' ? account : account.authId}`);
    return found;
  }

  number(account: PlivoAccount | string, number: string): PlivoNumber | undefined {
    return this.account(account).numbers.get(plivoDigits(number));
  }

  applications(account: PlivoAccount | string): PlivoApplication[] {
    return [...this.account(account).applications.values()];
  }

  get calls(): PlivoCall[] {
    return [...this.callsById.values()];
  }

  /** A call by request_uuid (what `POST Call/` returned) or CallUUID. */
  call(id: string): PlivoCall {
    const found = this.callsById.get(id) ?? this.calls.find((c) => c.callUuid === id);
    if (!found) throw new Error(`no Plivo call ${id}`);
    return found;
  }

  // ------------------------------------------------------------ calls and callbacks

  /**
   * Moves the call on and sends what Plivo sends: `ringing` → ring_url, `in-progress` → fetch of
   * answer_url (expects 200 XML, kept in `answerFetch`), a final status → hangup_url with Duration
   * and HangupCause*. Returns the receiver's HTTP status, or undefined when Plivo would send
   * nothing (no ring_url). `extra` adds or overrides form parameters.
   */
  async advanceCall(
    id: string,
    status: PlivoCallStatus,
    extra: Record<string, string> = {},
    options: DeliveryOptions = {},
  ): Promise<number | undefined> {
    const call = this.call(id);
    if (call.endedAt) throw new Error(`Plivo call ${id} has already ended`);
    const now = new Date();
    const base: FormBody = {
      CallUUID: call.callUuid,
      From: call.from,
      To: call.to,
      Direction: 'outbound',
      ALegUUID: call.callUuid,
      ALegRequestUUID: call.requestUuid,
      RequestUUID: call.requestUuid,
    };
    if (status === 'ringing') {
      call.status = 'ringing';
      if (!call.ringUrl) return undefined;
      const params = { ...base, CallStatus: 'ringing', Event: 'Ring', ...extra };
      const sent = { kind: 'status' as const, event: status, url: call.ringUrl, params };
      return (await this.send(call, { ...sent, method: call.ringMethod }, options)).status;
    }
    if (status === 'in-progress') {
      call.status = 'in-progress';
      call.answeredAt = now;
      const params = { ...base, CallStatus: 'in-progress', Event: 'StartApp', ...extra };
      const sent = { kind: 'answer' as const, event: status, url: call.answerUrl, params };
      call.answerFetch = await this.send(call, { ...sent, method: call.answerMethod }, options);
      return call.answerFetch.status;
    }
    call.status = status;
    call.endedAt = now;
    const cancelled = !call.answeredAt && call.hangupRequested;
    const hangup = PLIVO_HANGUP[cancelled ? 'cancel' : status];
    const duration = call.answeredAt
      ? Math.max(1, Math.round((now.getTime() - call.answeredAt.getTime()) / 1000))
      : 0;
    const billed = Math.ceil(duration / 60) * 60;
    const params: FormBody = {
      ...base,
      CallStatus: status,
      Event: 'Hangup',
      Duration: String(duration),
      BillDuration: String(billed),
      BillRate: '0.00850',
      TotalCost: ((billed / 60) * 0.0085).toFixed(5),
      HangupCause: hangup.cause,
      HangupCauseName: hangup.name,
      HangupCauseCode: hangup.code,
      HangupSource: call.hangupRequested ? 'API Request' : hangup.source,
      StartTime: plivoTime(call.createdAt),
      AnswerTime: call.answeredAt ? plivoTime(call.answeredAt) : '',
      EndTime: plivoTime(now),
      ...extra,
    };
    const sent = { kind: 'status' as const, event: status, url: call.hangupUrl, params };
    return (await this.send(call, { ...sent, method: call.hangupMethod }, options)).status;
  }

  /**
   * Asynchronous machine detection (`machine_detection_url` given when the call was placed):
   * Plivo answers the call at once and, once it has decided, posts its verdict there, V3-signed
   * as every callback: the call's identifiers, `Machine=true|false`, `IfMachine`, and
   * `Event=MachineDetection` with `CallStatus=in-progress`.
   */
  async detectMachine(id: string, machine: boolean, options: DeliveryOptions = {}) {
    const call = this.call(id);
    const url = field(call.params, 'machine_detection_url');
    if (!url) throw new Error(`Plivo call ${id} was placed without a machine_detection_url`);
    if (!call.answeredAt || call.endedAt) throw new Error(`Plivo call ${id} is not answered`);
    const params: FormBody = {
      From: call.from,
      To: call.to,
      Machine: String(machine),
      RequestUUID: call.requestUuid,
      ALegRequestUUID: call.requestUuid,
      CallUUID: call.callUuid,
      ALegUUID: call.callUuid,
      IfMachine: field(call.params, 'machine_detection') === 'hangup' ? 'hangup' : 'continue',
      Direction: 'outbound',
      Event: 'MachineDetection',
      CallStatus: 'in-progress',
    };
    const method = field(call.params, 'machine_detection_method') === 'GET' ? 'GET' : 'POST';
    const sent: Sent = { kind: 'status', event: 'machine-detection', url, params, method };
    return (await this.send(call, sent, options)).status;
  }

  /**
   * What Plivo does after a transfer of the A leg (`POST Call/{uuid}/` with `aleg_url`): fetches
   * the leg's new XML from aleg_url, V3-signed, and keeps the reply in `transferFetch`.
   */
  async fetchTransfer(id: string, options: DeliveryOptions = {}): Promise<CallbackDelivery> {
    const call = this.call(id);
    const transfer = call.transfers.at(-1);
    const url = field(transfer, 'aleg_url');
    if (!url) throw new Error(`Plivo call ${id} was not transferred with an aleg_url`);
    const params: FormBody = {
      CallUUID: call.callUuid,
      From: call.from,
      To: call.to,
      Direction: 'outbound',
      CallStatus: 'in-progress',
      Event: 'Redirect',
      ALegUUID: call.callUuid,
      ALegRequestUUID: call.requestUuid,
    };
    const method = field(transfer, 'aleg_method') === 'GET' ? 'GET' : 'POST';
    const sent: Sent = { kind: 'answer', event: 'transfer', url, params, method };
    call.transferFetch = await this.send(call, sent, options);
    return call.transferFetch;
  }

  /**
   * The <Dial> the last transfer fetched rang its <Number>, which answered: Plivo posts
   * DialAction `answer` (with both legs' uuids) to the <Dial>'s callbackUrl. Returns the
   * receiver's status.
   */
  async dialedAnswered(id: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(id);
    const xml = call.transferFetch?.responseBody ?? '';
    const url = elementAttribute(xml, 'Dial', 'callbackUrl');
    if (!url) throw new Error(`Plivo call ${id}'s <Dial> has no callbackUrl`);
    call.dialedUuid ??= randomUUID();
    const params: FormBody = {
      CallUUID: call.callUuid,
      DialAction: 'answer',
      DialALegUUID: call.callUuid,
      DialBLegUUID: call.dialedUuid,
      DialBLegStatus: 'answer',
      DialBLegTo: /<Number\b[^>]*>([^<]*)<\/Number>/.exec(xml)?.[1] ?? '',
      DialBLegFrom: elementAttribute(xml, 'Dial', 'callerId') ?? '',
    };
    const method = elementAttribute(xml, 'Dial', 'callbackMethod') === 'GET' ? 'GET' : 'POST';
    const sent: Sent = { kind: 'status', event: 'dial-answered', url, params, method };
    return (await this.send(call, sent, options)).status;
  }

  /**
   * The B leg answered a <Dial> with a confirmSound: Plivo fetches it on the B leg (signed like
   * every request) and plays its Speak to the new party, who must then press confirmKey before
   * Plivo bridges the legs (and reports DialAction `answer`: dialedAnswered). Kept in
   * `confirmSoundFetch`.
   */
  async fetchConfirmSound(id: string, options: DeliveryOptions = {}): Promise<CallbackDelivery> {
    const call = this.call(id);
    const xml = call.transferFetch?.responseBody ?? '';
    const url = elementAttribute(xml, 'Dial', 'confirmSound');
    if (!url) throw new Error(`Plivo call ${id}'s <Dial> has no confirmSound`);
    call.dialedUuid ??= randomUUID();
    const params: FormBody = {
      CallUUID: call.dialedUuid,
      From: elementAttribute(xml, 'Dial', 'callerId') ?? '',
      To: /<Number\b[^>]*>([^<]*)<\/Number>/.exec(xml)?.[1] ?? '',
      Direction: 'outbound',
      CallStatus: 'in-progress',
      ALegUUID: call.callUuid,
      ALegRequestUUID: call.requestUuid,
    };
    const sent: Sent = { kind: 'answer', event: 'confirm-sound', url, params, method: 'POST' };
    call.confirmSoundFetch = await this.send(call, sent, options);
    return call.confirmSoundFetch;
  }

  /**
   * The <Dial> the last transfer fetched is over: Plivo posts DialStatus (completed after a
   * conversation; busy, failed, timeout, no-answer) to its `action` and runs the XML it answers,
   * kept in `dialActionFetch`. `callerHungUp`: the A leg left while it rang.
   */
  async dialEnded(
    id: string,
    dialStatus: 'completed' | 'busy' | 'failed' | 'timeout' | 'no-answer',
    options: DeliveryOptions & { callerHungUp?: boolean } = {},
  ): Promise<CallbackDelivery> {
    const call = this.call(id);
    const xml = call.transferFetch?.responseBody ?? '';
    const url = elementAttribute(xml, 'Dial', 'action');
    if (!url) throw new Error(`Plivo call ${id}'s <Dial> has no action`);
    const params: FormBody = {
      CallUUID: call.callUuid,
      From: call.from,
      To: call.to,
      Direction: 'outbound',
      CallStatus: options.callerHungUp ? 'completed' : 'in-progress',
      ALegUUID: call.callUuid,
      ALegRequestUUID: call.requestUuid,
      DialStatus: dialStatus,
      DialALegUUID: call.callUuid,
      // Empty when nobody answered.
      DialBLegUUID: dialStatus === 'completed' ? (call.dialedUuid ?? randomUUID()) : '',
      DialRingStatus: dialStatus === 'failed' ? 'false' : 'true',
      DialHangupCause: dialStatus === 'completed' ? 'NORMAL_CLEARING' : 'NO_ANSWER',
    };
    const method = elementAttribute(xml, 'Dial', 'method') === 'GET' ? 'GET' : 'POST';
    const sent: Sent = { kind: 'answer', event: 'dial-action', url, params, method };
    call.dialActionFetch = await this.send(call, sent, options);
    return call.dialActionFetch;
  }

  /** Sends the call's last callback again (a provider retry), signed with a fresh nonce. */
  async replayLastCallback(id: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(id);
    const last = this.lastSent.get(call.requestUuid);
    if (!last) throw new Error(`Plivo call ${id} has sent no callback yet`);
    return (await this.send(call, last, options)).status;
  }

  /**
   * What Plivo posts to a `<Record callbackUrl>` once the recording is ready (RecordUrl,
   * RecordingID, RecordingDuration…), V3-signed like every callback.
   */
  async sendRecording(id: string, callbackUrl: string, options: DeliveryOptions = {}) {
    const call = this.call(id);
    const recordingId = randomAlnum(32, 'abcdef0123456789');
    const duration = call.answeredAt
      ? Math.max(
          1,
          Math.round(((call.endedAt ?? new Date()).getTime() - call.answeredAt.getTime()) / 1000),
        )
      : 0;
    const params: FormBody = {
      CallUUID: call.callUuid,
      RecordUrl: `${this.baseUrl}/v1/Account/${call.authId}/Recording/${recordingId}.mp3`,
      RecordingID: recordingId,
      RecordingDuration: String(duration),
      RecordingDurationMs: String(duration * 1000),
    };
    const sent = { kind: 'status' as const, event: 'recording', url: callbackUrl, params };
    return (await this.send(call, { ...sent, method: 'POST' }, options)).status;
  }

  private async send(call: PlivoCall, sent: Sent, options: DeliveryOptions) {
    this.lastSent.set(call.requestUuid, sent);
    const token = this.account(call.authId).authToken;
    const nonce = plivoNonce();
    const signWith = options.signature === 'invalid' ? `${token}x` : token;
    const signature = plivoV3Signature(signWith, sent.method, sent.url, sent.params, nonce);
    const headers: Record<string, string> = {};
    if (options.signature !== 'missing') {
      headers['X-Plivo-Signature-V3'] = signature;
      headers['X-Plivo-Signature-Ma-V3'] = signature;
      headers['X-Plivo-Signature-V3-Nonce'] = nonce;
    }
    if (sent.method === 'POST') headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const query = encodeForm(sent.params);
    return this.deliver({
      callId: call.requestUuid,
      kind: sent.kind,
      event: sent.event,
      method: sent.method,
      url: sent.method === 'GET' ? appendQuery(sent.url, query) : sent.url,
      headers,
      body: sent.method === 'POST' ? query : '',
      payload: sent.params,
    });
  }

  protected async progress(id: string, outcome: Exclude<AutoOutcome, 'hold'>): Promise<void> {
    const steps: PlivoCallStatus[] =
      outcome === 'failed'
        ? ['failed']
        : outcome === 'completed'
          ? ['ringing', 'in-progress', 'completed']
          : ['ringing', outcome];
    // What picked up is a person: synchronous detection (no machine_detection_url) says so on
    // the answer request, asynchronous detection posts its verdict right after the answer.
    const params = this.call(id).params;
    const detection = field(params, 'machine_detection') === 'true';
    const async = detection && field(params, 'machine_detection_url') !== undefined;
    for (const step of steps) {
      if (step === 'completed') await this.converse('provider_one', id);
      const sync = step === 'in-progress' && detection && !async;
      await this.advanceCall(id, step, sync ? { Machine: 'false' } : {});
      if (step === 'in-progress' && async) await this.detectMachine(id, false);
    }
  }

  protected override streamInstructions(id: string): StreamInstructions | undefined {
    const call = this.call(id);
    const answer = call.answerFetch;
    if (answer?.status !== 200 || !answer.responseBody.includes('<Stream')) return undefined;
    // Plivo's stream names the live call by its CallUUID, never by the request_uuid.
    return { ...plivoXmlStream(answer.responseBody), callId: call.callUuid };
  }

  protected override hangupRequested(id: string): boolean {
    return this.call(id).hangupRequested;
  }

  protected errorResponse(status: number, message?: string, retryAfter?: number): FakeResponse {
    return plivoError(status, message, retryAfter);
  }
}
