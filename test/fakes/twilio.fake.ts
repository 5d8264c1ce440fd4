import { randomBytes } from 'node:crypto';
import {
  HttpFake,
  appendQuery,
  encodeForm,
  field,
  type AutoOutcome,
  type CallbackDelivery,
  type DeliveryOptions,
  type FakeResponse,
  type FormBody,
} from './http-fake';
import { elementAttribute, twimlStream, type StreamInstructions } from './media-stream-caller';
import { twilioSignature } from './signatures';
import { registerTwilioApi, twilioSid } from './twilio.api';
import {
  SIP_RESPONSE,
  TWILIO_API_VERSION,
  callDuration,
  findNumber,
  formatted,
  rfc2822,
  subscribedEvent,
  twilioErrorFor,
  type TwilioAccount,
  type TwilioCall,
  type TwilioCallStatus,
  type TwilioNumber,
} from './twilio.model';

export { twilioError } from './twilio.model';

const TERMINAL: TwilioCallStatus[] = ['completed', 'busy', 'failed', 'no-answer', 'canceled'];

interface Sent {
  kind: CallbackDelivery['kind'];
  event: string;
  url: string;
  method: 'GET' | 'POST';
  params: FormBody;
  idempotencyToken: string;
}

/**
 * Twilio's REST API (`https://api.twilio.com`, under `/2010-04-01/Accounts/{Sid}`): Basic auth,
 * form bodies with repeated keys, `.json` resources, `{code,message,more_info,status}` errors, and
 * `X-Twilio-Signature`-signed status callbacks to the StatusCallback a call was placed with.
 */
export class TwilioFake extends HttpFake {
  readonly accounts = new Map<string, TwilioAccount>();
  private readonly callsBySid = new Map<string, TwilioCall>();
  private readonly lastSent = new Map<string, Sent>();

  static async start(): Promise<TwilioFake> {
    const fake = new TwilioFake();
    await fake.listen();
    return fake;
  }

  private constructor() {
    super();
    const state = {
      accounts: this.accounts,
      calls: this.callsBySid,
      placed: (sid: string, to: string) => this.callPlaced(sid, to),
    };
    registerTwilioApi((method, template, handler) => this.route(method, template, handler), state);
  }

  // ------------------------------------------------------------ seeding and state

  addAccount(
    init: Partial<
      Pick<TwilioAccount, 'sid' | 'authToken' | 'friendlyName' | 'status' | 'type'>
    > = {},
  ): TwilioAccount {
    const account: TwilioAccount = {
      sid: twilioSid('AC'),
      authToken: randomBytes(16).toString('hex'),
      friendlyName: 'Switchboard Test',
      status: 'active',
      type: 'Full',
      apiKeys: new Map(),
      numbers: new Map(),
      createdAt: new Date(),
      ...init,
    };
    this.accounts.set(account.sid, account);
    return account;
  }

  /** An API Key (SK…) whose secret authenticates like the auth token. */
  addApiKey(account: TwilioAccount | string): { sid: string; secret: string } {
    const key = { sid: twilioSid('SK'), secret: randomBytes(16).toString('hex') };
    this.account(account).apiKeys.set(key.sid, key.secret);
    return key;
  }

  /** Owns `e164` (`+` added when missing) on the account, voice capable and unconfigured. */
  addNumber(
    account: TwilioAccount | string,
    e164: string,
    options: Partial<Omit<TwilioNumber, 'phoneNumber'>> = {},
  ): TwilioNumber {
    const phoneNumber = e164.startsWith('+') ? e164 : `+${e164}`;
    const now = new Date();
    const entry: TwilioNumber = {
      sid: twilioSid('PN'),
      phoneNumber,
      friendlyName: formatted(phoneNumber),
      voiceUrl: '',
      voiceMethod: 'POST',
      voiceFallbackUrl: '',
      voiceFallbackMethod: 'POST',
      statusCallback: '',
      statusCallbackMethod: 'POST',
      voiceApplicationSid: '',
      voiceCallerIdLookup: false,
      capabilities: { voice: true, sms: true, mms: true, fax: false },
      createdAt: now,
      updatedAt: now,
      ...options,
    };
    this.account(account).numbers.set(entry.sid, entry);
    return entry;
  }

  account(account: TwilioAccount | string): TwilioAccount {
    const found = typeof account === 'string' ? this.accounts.get(account) : account;
    if (!found)
      throw new Error(`no Twilio account ${typeof account === 'string' ? account : account.sid}`);
    return found;
  }

  /** The IncomingPhoneNumber with this +E.164 (or `+`-less) number, if the account owns it. */
  number(account: TwilioAccount | string, e164: string): TwilioNumber | undefined {
    return findNumber(this.account(account), e164);
  }

  get calls(): TwilioCall[] {
    return [...this.callsBySid.values()];
  }

  call(callSid: string): TwilioCall {
    const found = this.callsBySid.get(callSid);
    if (!found) throw new Error(`no Twilio call ${callSid}`);
    return found;
  }

  // ------------------------------------------------------------ calls and callbacks

  /**
   * Moves the call to `status`. On `in-progress` the fake first fetches the call's `Url` (expects
   * 200 TwiML, kept in `answerFetch`). A status callback goes to StatusCallback only when its
   * StatusCallbackEvent was requested (initiated | ringing | answered | completed for every final
   * status). Returns the receiver's status for that callback, else for the Url fetch, else
   * undefined. `extra` adds or overrides form parameters (e.g. AnsweredBy, RecordingUrl).
   */
  async advanceCall(
    callSid: string,
    status: Exclude<TwilioCallStatus, 'queued'>,
    extra: Record<string, string> = {},
    options: DeliveryOptions = {},
  ): Promise<number | undefined> {
    const call = this.call(callSid);
    if (call.endedAt) throw new Error(`Twilio call ${callSid} has already ended`);
    const now = new Date();
    call.status = status;
    call.updatedAt = now;
    const base: FormBody = {
      AccountSid: call.accountSid,
      ApiVersion: TWILIO_API_VERSION,
      CallSid: call.sid,
      CallStatus: status,
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      To: call.to,
      // Synchronous detection answers with the verdict; asynchronous posts it on its own.
      ...(call.machineDetection &&
      !call.asyncAmd &&
      (status === 'in-progress' || status === 'completed')
        ? { AnsweredBy: 'human' }
        : {}),
    };
    let answerStatus: number | undefined;
    if (status === 'in-progress') {
      call.answeredAt = now;
      if (call.url) {
        const sent = this.sent('answer', status, call.url, call.method, { ...base, ...extra });
        call.answerFetch = await this.send(call, sent, options);
        answerStatus = call.answerFetch.status;
      }
    }
    if (TERMINAL.includes(status)) call.endedAt = now;
    const event = subscribedEvent(status);
    if (!call.statusCallback || !call.statusCallbackEvents.includes(event)) return answerStatus;
    const sip = SIP_RESPONSE[status];
    const params: FormBody = {
      ...base,
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(call.sequence++),
      Timestamp: rfc2822(now),
      ...(sip ? { SipResponseCode: sip } : {}),
      ...(event === 'completed' ? { CallDuration: String(callDuration(call, now)) } : {}),
      ...extra,
    };
    const sent = this.sent(
      'status',
      status,
      call.statusCallback,
      call.statusCallbackMethod,
      params,
    );
    return (await this.send(call, sent, options)).status;
  }

  /**
   * AsyncAmd's verdict: Twilio posts `AnsweredBy` (human | machine_start | machine_end_beep |
   * machine_end_silence | machine_end_other | fax | unknown) and how long detection took to
   * AsyncAmdStatusCallback, a while after the answer. Returns the receiver's status.
   */
  async reportMachineDetection(
    callSid: string,
    answeredBy: string,
    options: DeliveryOptions = {},
  ): Promise<number> {
    const call = this.call(callSid);
    if (!call.asyncAmd || !call.asyncAmdStatusCallback)
      throw new Error(`Twilio call ${callSid} did not ask for asynchronous detection`);
    const params: FormBody = {
      AccountSid: call.accountSid,
      CallSid: call.sid,
      AnsweredBy: answeredBy,
      MachineDetectionDuration: '1850',
    };
    const sent = this.sent('status', 'amd', call.asyncAmdStatusCallback, 'POST', params);
    return (await this.send(call, sent, options)).status;
  }

  /**
   * What Twilio does after a `Url` update of a live call (a transfer): fetches the new TwiML from
   * that Url, signed like every request, and keeps the reply in `redirectFetch`.
   */
  async fetchRedirect(callSid: string, options: DeliveryOptions = {}): Promise<CallbackDelivery> {
    const call = this.call(callSid);
    const redirect = call.redirects.at(-1);
    const url = field(redirect, 'Url');
    if (!url) throw new Error(`Twilio call ${callSid} was not redirected to a Url`);
    const params: FormBody = {
      AccountSid: call.accountSid,
      ApiVersion: TWILIO_API_VERSION,
      CallSid: call.sid,
      CallStatus: call.status,
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      To: call.to,
    };
    const method = field(redirect, 'Method') === 'GET' ? 'GET' : 'POST';
    call.redirectFetch = await this.send(
      call,
      this.sent('answer', 'redirect', url, method, params),
      options,
    );
    return call.redirectFetch;
  }

  /**
   * The <Dial> the last redirect fetched rang its <Number>, which answered: Twilio posts the
   * child call (ParentCallSid) `in-progress` to the <Number>'s statusCallback, when its
   * statusCallbackEvent asks for `answered`. Returns the receiver's status.
   */
  async dialedAnswered(callSid: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(callSid);
    const twiml = call.redirectFetch?.responseBody ?? '';
    const url = elementAttribute(twiml, 'Number', 'statusCallback');
    const events = (elementAttribute(twiml, 'Number', 'statusCallbackEvent') ?? '').split(' ');
    if (!url || !events.includes('answered'))
      throw new Error(`Twilio call ${callSid}'s <Dial> does not report its <Number> answering`);
    call.dialedSid = twilioSid('CA');
    const params: FormBody = {
      ...this.childParams(call, twiml),
      CallbackSource: 'call-progress-events',
      SequenceNumber: '0',
      Timestamp: rfc2822(new Date()),
    };
    const method =
      elementAttribute(twiml, 'Number', 'statusCallbackMethod') === 'GET' ? 'GET' : 'POST';
    const sent = this.sent('status', 'dial-answered', url, method, params);
    return (await this.send(call, sent, options)).status;
  }

  /**
   * The whisper: once the <Number> answered (dialedAnswered), Twilio runs the TwiML of its `url`
   * on the child call before bridging it, fetched signed like every request; kept in
   * `briefingFetch`.
   */
  async fetchBriefing(callSid: string, options: DeliveryOptions = {}): Promise<CallbackDelivery> {
    const call = this.call(callSid);
    const twiml = call.redirectFetch?.responseBody ?? '';
    const url = elementAttribute(twiml, 'Number', 'url');
    if (!url || !call.dialedSid)
      throw new Error(`Twilio call ${callSid}'s <Number> has no url or has not answered`);
    const method = elementAttribute(twiml, 'Number', 'method') === 'GET' ? 'GET' : 'POST';
    call.briefingFetch = await this.send(
      call,
      this.sent('answer', 'whisper', url, method, this.childParams(call, twiml)),
      options,
    );
    return call.briefingFetch;
  }

  /**
   * The child call's party pressed `digits` during the whisper's <Gather>: Twilio posts them
   * (Digits, FinishedOnKey) to its `action` and runs the TwiML it answers (an empty document
   * ends the whisper and bridges the call).
   */
  async pressInBriefing(
    callSid: string,
    digits: string,
    options: DeliveryOptions = {},
  ): Promise<CallbackDelivery> {
    const call = this.call(callSid);
    const whisper = call.briefingFetch?.responseBody ?? '';
    const url = elementAttribute(whisper, 'Gather', 'action');
    if (!url) throw new Error(`Twilio call ${callSid}'s whisper has no <Gather action>`);
    const params = {
      ...this.childParams(call, call.redirectFetch?.responseBody ?? ''),
      Digits: digits,
      FinishedOnKey: '',
    };
    const method = elementAttribute(whisper, 'Gather', 'method') === 'GET' ? 'GET' : 'POST';
    return this.send(call, this.sent('answer', 'gather', url, method, params), options);
  }

  /** The parameters of requests about the child call a <Dial> placed. */
  private childParams(
    call: { accountSid: string; sid: string; from: string; dialedSid?: string },
    twiml: string,
  ): FormBody {
    const to = /<Number\b[^>]*>([^<]*)<\/Number>/.exec(twiml)?.[1] ?? '';
    return {
      AccountSid: call.accountSid,
      ApiVersion: TWILIO_API_VERSION,
      CallSid: call.dialedSid ?? '',
      ParentCallSid: call.sid,
      CallStatus: 'in-progress',
      Direction: 'outbound-dial',
      From: elementAttribute(twiml, 'Dial', 'callerId') ?? call.from,
      To: to,
      Called: to,
    };
  }

  /**
   * The <Dial> the last redirect fetched is over: Twilio posts DialCallStatus (completed or
   * answered after a conversation; busy, no-answer, failed, canceled) to the <Dial>'s `action`
   * and plays the TwiML it answers, kept in `dialActionFetch`. `callerHungUp`: the caller left
   * while it rang (the parent call is `completed`).
   */
  async dialEnded(
    callSid: string,
    dialCallStatus: 'completed' | 'answered' | 'busy' | 'no-answer' | 'failed' | 'canceled',
    options: DeliveryOptions & { callerHungUp?: boolean } = {},
  ): Promise<CallbackDelivery> {
    const call = this.call(callSid);
    const twiml = call.redirectFetch?.responseBody ?? '';
    const url = elementAttribute(twiml, 'Dial', 'action');
    if (!url) throw new Error(`Twilio call ${callSid}'s <Dial> has no action`);
    const answered = dialCallStatus === 'completed' || dialCallStatus === 'answered';
    const params: FormBody = {
      AccountSid: call.accountSid,
      ApiVersion: TWILIO_API_VERSION,
      CallSid: call.sid,
      CallStatus: options.callerHungUp ? 'completed' : 'in-progress',
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      To: call.to,
      DialCallStatus: dialCallStatus,
      DialCallSid: call.dialedSid ?? twilioSid('CA'),
      DialCallDuration: answered ? '42' : '0',
    };
    const method = elementAttribute(twiml, 'Dial', 'method') === 'GET' ? 'GET' : 'POST';
    call.dialActionFetch = await this.send(
      call,
      this.sent('answer', 'dial-action', url, method, params),
      options,
    );
    return call.dialActionFetch;
  }

  /** Sends the call's last callback again, same parameters and I-Twilio-Idempotency-Token. */
  async replayLastCallback(callSid: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(callSid);
    const last = this.lastSent.get(call.sid);
    if (!last) throw new Error(`Twilio call ${callSid} has sent no callback yet`);
    return (await this.send(call, last, options)).status;
  }

  /** The RecordingStatusCallback the call was placed with (Record=true), recording `completed`. */
  async sendRecording(callSid: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(callSid);
    const url = field(call.params, 'RecordingStatusCallback');
    if (!url) throw new Error(`Twilio call ${callSid} was placed without RecordingStatusCallback`);
    const recordingSid = twilioSid('RE');
    const params: FormBody = {
      AccountSid: call.accountSid,
      CallSid: call.sid,
      RecordingSid: recordingSid,
      RecordingUrl: `${this.baseUrl}/2010-04-01/Accounts/${call.accountSid}/Recordings/${recordingSid}`,
      RecordingStatus: 'completed',
      RecordingDuration: String(callDuration(call, call.endedAt ?? new Date())),
      RecordingChannels: '1',
      RecordingSource: 'OutboundAPI',
    };
    const sent = this.sent('status', 'recording', url, 'POST', params);
    return (await this.send(call, sent, options)).status;
  }

  private sent(
    kind: Sent['kind'],
    event: string,
    url: string,
    m: Sent['method'],
    params: FormBody,
  ): Sent {
    return {
      kind,
      event,
      url,
      method: m,
      params,
      idempotencyToken: randomBytes(16).toString('hex'),
    };
  }

  private async send(call: TwilioCall, sent: Sent, options: DeliveryOptions) {
    this.lastSent.set(call.sid, sent);
    const token = this.account(call.accountSid).authToken;
    const query = encodeForm(sent.params);
    const url = sent.method === 'GET' ? appendQuery(sent.url, query) : sent.url;
    const signed = sent.method === 'GET' ? {} : sent.params;
    const headers: Record<string, string> = {
      'I-Twilio-Idempotency-Token': sent.idempotencyToken,
      'User-Agent': 'TwilioProxy/1.1',
    };
    if (options.signature !== 'missing') {
      const key = options.signature === 'invalid' ? `${token}x` : token;
      headers['X-Twilio-Signature'] = twilioSignature(key, url, signed);
    }
    if (sent.method === 'POST') headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return this.deliver({
      callId: call.sid,
      kind: sent.kind,
      event: sent.event,
      method: sent.method,
      url,
      headers,
      body: sent.method === 'POST' ? query : '',
      payload: sent.params,
    });
  }

  protected async progress(sid: string, outcome: Exclude<AutoOutcome, 'hold'>): Promise<void> {
    const steps: Array<Exclude<TwilioCallStatus, 'queued'>> =
      outcome === 'failed'
        ? ['failed']
        : outcome === 'completed'
          ? ['initiated', 'ringing', 'in-progress', 'completed']
          : ['initiated', 'ringing', outcome];
    for (const step of steps) {
      if (step === 'completed') await this.converse('provider_two', sid);
      await this.advanceCall(sid, step);
      // A person answered: AsyncAmd says so once it has listened.
      if (step === 'in-progress' && this.call(sid).asyncAmd)
        await this.reportMachineDetection(sid, 'human');
    }
  }

  protected override streamInstructions(sid: string): StreamInstructions | undefined {
    const answer = this.call(sid).answerFetch;
    if (answer?.status !== 200 || !answer.responseBody.includes('<Stream')) return undefined;
    return twimlStream(answer.responseBody);
  }

  protected override hangupRequested(sid: string): boolean {
    return this.call(sid).hangupRequested;
  }

  protected errorResponse(status: number, message?: string, retryAfter?: number): FakeResponse {
    return twilioErrorFor(status, message, retryAfter);
  }
}
