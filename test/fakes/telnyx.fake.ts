import { randomUUID } from 'node:crypto';
import {
  HttpFake,
  randomAlnum,
  randomDigits,
  type AutoOutcome,
  type DeliveryOptions,
  type FakeResponse,
} from './http-fake';
import { telnyxStream, type StreamInstructions } from './media-stream-caller';
import { generateEd25519KeyPair, telnyxSignature, type Ed25519KeyPair } from './signatures';
import { registerTelnyxApi } from './telnyx.api';
import {
  createApplication,
  telnyxErrorFor,
  type TelnyxAccount,
  type TelnyxApplication,
  type TelnyxCall,
  type TelnyxNumber,
  type TelnyxOutboundVoiceProfile,
  type TelnyxWebhook,
} from './telnyx.model';

export { telnyxError } from './telnyx.model';

export type TelnyxEventType =
  | 'call.initiated'
  | 'call.answered'
  | 'call.hangup'
  | 'call.bridged'
  | 'call.machine.detection.ended'
  | 'call.machine.greeting.ended'
  | 'call.machine.premium.detection.ended'
  | 'call.machine.premium.greeting.ended'
  | 'call.recording.saved'
  | 'call.speak.started'
  | 'call.speak.ended'
  | 'call.gather.ended';

/**
 * Telnyx's API v2 (`https://api.telnyx.com`, under `/v2`): Bearer API key, JSON both ways,
 * `{data, meta}` lists, `{errors:[{code,title,detail,source}]}` errors, Call Control Applications,
 * and Ed25519-signed JSON webhooks (`telnyx-signature-ed25519` over `timestamp|body`).
 */
export class TelnyxFake extends HttpFake {
  readonly accounts = new Map<string, TelnyxAccount>();
  /**
   * Raw 32-byte Ed25519 public key, base64, of every account added without a key pair of its own
   * (as if they were one Telnyx account): Switchboard's `PROVIDER_THREE_PUBLIC_KEY`.
   */
  readonly publicKey: string;
  private readonly keyPair: Ed25519KeyPair;
  private readonly callsById = new Map<string, TelnyxCall>();
  private readonly lastSent = new Map<string, TelnyxWebhook>();

  static async start(): Promise<TelnyxFake> {
    const fake = new TelnyxFake();
    await fake.listen();
    return fake;
  }

  private constructor() {
    super();
    this.keyPair = generateEd25519KeyPair();
    this.publicKey = this.keyPair.publicKey;
    const state = {
      accounts: this.accounts,
      calls: this.callsById,
      placed: (id: string, to: string) => this.callPlaced(id, to),
    };
    registerTelnyxApi((method, template, handler) => this.route(method, template, handler), state);
  }

  // ------------------------------------------------------------ seeding and state

  /**
   * A new account; it gets a default outbound voice profile unless told otherwise. It signs with
   * the fake's key pair unless given its own (each real account has its own: `ownKeyPair`).
   */
  addAccount(
    init: {
      apiKey?: string;
      balance?: string;
      withOutboundVoiceProfile?: boolean;
      ownKeyPair?: boolean;
    } = {},
  ): TelnyxAccount {
    const account: TelnyxAccount = {
      apiKey:
        init.apiKey ??
        `KEY${randomAlnum(26)}_${randomAlnum(22, 'abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789')}`,
      balance: init.balance ?? '300.00',
      keyPair: init.ownKeyPair ? generateEd25519KeyPair() : this.keyPair,
      numbers: new Map(),
      applications: new Map(),
      outboundVoiceProfiles: new Map(),
    };
    this.accounts.set(account.apiKey, account);
    if (init.withOutboundVoiceProfile !== false) this.addOutboundVoiceProfile(account, 'Default');
    return account;
  }

  addOutboundVoiceProfile(
    account: TelnyxAccount | string,
    name: string,
  ): TelnyxOutboundVoiceProfile {
    const profile = { id: randomDigits(19), name, enabled: true, createdAt: new Date() };
    this.account(account).outboundVoiceProfiles.set(profile.id, profile);
    return profile;
  }

  /** Owns `e164` (`+` added when missing) on the account: active, no connection. */
  addNumber(
    account: TelnyxAccount | string,
    e164: string,
    options: Partial<Omit<TelnyxNumber, 'phoneNumber'>> = {},
  ): TelnyxNumber {
    const now = new Date();
    const n: TelnyxNumber = {
      id: randomDigits(19),
      phoneNumber: e164.startsWith('+') ? e164 : `+${e164}`,
      status: 'active',
      connectionId: null,
      tags: [],
      createdAt: now,
      updatedAt: now,
      ...options,
    };
    this.account(account).numbers.set(n.id, n);
    return n;
  }

  addApplication(
    account: TelnyxAccount | string,
    init: Partial<TelnyxApplication> &
      Pick<TelnyxApplication, 'applicationName' | 'webhookEventUrl'>,
  ): TelnyxApplication {
    return createApplication(this.account(account), init);
  }

  account(account: TelnyxAccount | string): TelnyxAccount {
    const found = typeof account === 'string' ? this.accounts.get(account) : account;
    if (!found) throw new Error('no such Telnyx account');
    return found;
  }

  number(account: TelnyxAccount | string, e164: string): TelnyxNumber | undefined {
    const wanted = e164.startsWith('+') ? e164 : `+${e164}`;
    return [...this.account(account).numbers.values()].find((n) => n.phoneNumber === wanted);
  }

  application(account: TelnyxAccount | string, id: string): TelnyxApplication | undefined {
    return this.account(account).applications.get(id);
  }

  get calls(): TelnyxCall[] {
    return [...this.callsById.values()];
  }

  /**
   * What Telnyx does about 10 minutes after a call ended: it forgets it (`GET /v2/calls/{id}`
   * answers 404 from then on). The call must have ended.
   */
  forgetCall(callControlId: string): void {
    const call = this.call(callControlId);
    if (!call.endedAt) throw new Error(`Telnyx call ${callControlId} has not ended`);
    call.forgotten = true;
  }

  call(callControlId: string): TelnyxCall {
    const found = this.callsById.get(callControlId);
    if (!found) throw new Error(`no Telnyx call ${callControlId}`);
    return found;
  }

  // ------------------------------------------------------------ calls and webhooks

  /**
   * Posts a signed webhook `{data:{id,event_type,occurred_at,record_type,payload},meta}` to the
   * call's webhook_url (or its app's current webhook_event_url) and returns the receiver's status.
   * `call.hangup` defaults to normal_clearing after an answer, otherwise no_answer; `extra` adds
   * or overrides payload fields (hangup_cause, result, recording_urls, ...).
   */
  async advanceCall(
    callControlId: string,
    eventType: TelnyxEventType,
    extra: Record<string, unknown> = {},
    options: DeliveryOptions = {},
  ): Promise<number> {
    const call = this.call(callControlId);
    // The recording is saved once the call has ended; nothing else follows a hang-up.
    if (call.endedAt && eventType !== 'call.recording.saved')
      throw new Error(`Telnyx call ${callControlId} has already ended`);
    const now = new Date();
    const payload: Record<string, unknown> = {
      call_control_id: call.callControlId,
      call_leg_id: call.callLegId,
      call_session_id: call.callSessionId,
      connection_id: call.connectionId,
      client_state: call.clientState,
      from: call.from,
      to: call.to,
      direction: 'outgoing',
    };
    switch (eventType) {
      case 'call.initiated':
        call.state = 'initiated';
        Object.assign(payload, { state: 'bridging', start_time: now.toISOString() });
        break;
      case 'call.answered':
        call.state = 'answered';
        call.answeredAt = now;
        Object.assign(payload, { state: 'answered', start_time: call.createdAt.toISOString() });
        break;
      case 'call.hangup':
        call.state = 'hangup';
        call.endedAt = now;
        Object.assign(payload, {
          state: 'hangup',
          start_time: call.createdAt.toISOString(),
          end_time: now.toISOString(),
          // Hung up by us before an answer, Telnyx says originator_cancel.
          hangup_cause: call.answeredAt
            ? 'normal_clearing'
            : call.hangupRequested
              ? 'originator_cancel'
              : 'no_answer',
          hangup_source: call.hangupRequested ? 'caller' : 'callee',
          sip_hangup_cause: call.answeredAt ? '200' : '480',
          call_quality_stats: null,
        });
        break;
      case 'call.machine.detection.ended':
        payload.result = 'human';
        break;
      case 'call.machine.premium.detection.ended':
        payload.result = 'human_residence';
        break;
      case 'call.machine.greeting.ended':
        payload.result = 'ended';
        break;
      case 'call.machine.premium.greeting.ended':
        payload.result = 'beep_detected';
        break;
      case 'call.recording.saved': {
        const id = randomUUID();
        const started = call.answeredAt ?? call.createdAt;
        const urls = {
          mp3: `${this.baseUrl}/recordings/${id}.mp3`,
          wav: `${this.baseUrl}/recordings/${id}.wav`,
        };
        Object.assign(payload, {
          recording_id: id,
          channels: 'single',
          recording_started_at: started.toISOString(),
          recording_ended_at: now.toISOString(),
          recording_urls: urls,
          public_recording_urls: urls,
        });
        break;
      }
      case 'call.gather.ended':
        // No key within the gather's timeout, unless `extra` says which were pressed.
        Object.assign(payload, { digits: '', status: 'timeout' });
        break;
      case 'call.bridged':
      case 'call.speak.started':
      case 'call.speak.ended':
        break;
    }
    Object.assign(payload, extra);
    const url =
      call.webhookUrl ?? this.application(call.apiKey, call.connectionId)?.webhookEventUrl;
    if (!url) throw new Error(`Telnyx call ${callControlId} has no webhook URL`);
    const document: TelnyxWebhook = {
      data: {
        id: randomUUID(),
        event_type: eventType,
        occurred_at: now.toISOString(),
        record_type: 'event',
        payload,
      },
      meta: { attempt: 1, delivered_to: url },
    };
    return this.send(call, document, options);
  }

  /** The call ends at Telnyx, but its `call.hangup` never reaches us (a lost webhook). */
  endCallUnreported(callControlId: string): void {
    const call = this.call(callControlId);
    call.state = 'hangup';
    call.endedAt = new Date();
  }

  /**
   * What Telnyx sends after accepting a `transfer` of the call: the events of the new leg it
   * dials (its own call_control_id, the transfer's client_state, to the transfer's webhook_url):
   * `call.initiated`, then `call.answered` and `call.bridged` when the destination picks up, or
   * `call.hangup` (`user_busy`) when it does not — the original call then stays as it was.
   */
  async transferLeg(callControlId: string, outcome: 'answered' | 'failed'): Promise<number[]> {
    const call = this.call(callControlId);
    const transfer = call.actions.find((action) => action.action === 'transfer')?.body as
      { to: string; from?: string; webhook_url?: string; client_state?: string } | undefined;
    if (!transfer) throw new Error(`Telnyx call ${callControlId} was not transferred`);
    const url =
      transfer.webhook_url ??
      call.webhookUrl ??
      this.application(call.apiKey, call.connectionId)?.webhookEventUrl;
    if (!url) throw new Error(`Telnyx call ${callControlId} has no webhook URL`);
    const leg = `v3:${randomAlnum(40)}`;
    const events: Array<[TelnyxEventType, Record<string, unknown>]> =
      outcome === 'answered'
        ? [
            ['call.initiated', { state: 'bridging' }],
            ['call.answered', { state: 'answered' }],
            ['call.bridged', {}],
          ]
        : [
            ['call.initiated', { state: 'bridging' }],
            [
              'call.hangup',
              { state: 'hangup', hangup_cause: 'user_busy', sip_hangup_cause: '486' },
            ],
          ];
    const statuses: number[] = [];
    for (const [eventType, extra] of events) {
      const now = new Date().toISOString();
      const document: TelnyxWebhook = {
        data: {
          id: randomUUID(),
          event_type: eventType,
          occurred_at: now,
          record_type: 'event',
          payload: {
            call_control_id: leg,
            call_leg_id: randomUUID(),
            call_session_id: call.callSessionId,
            connection_id: call.connectionId,
            client_state: transfer.client_state ?? null,
            from: transfer.from ?? call.from,
            to: transfer.to,
            direction: 'outgoing',
            ...extra,
          },
        },
        meta: { attempt: 1, delivered_to: url },
      };
      statuses.push(await this.send(call, document, {}));
    }
    return statuses;
  }

  /** Sends the call's last webhook again: same event id, `meta.attempt` + 1, fresh signature. */
  async replayLastCallback(callControlId: string, options: DeliveryOptions = {}): Promise<number> {
    const call = this.call(callControlId);
    const last = this.lastSent.get(call.callControlId);
    if (!last) throw new Error(`Telnyx call ${callControlId} has sent no webhook yet`);
    return this.send(
      call,
      { ...last, meta: { ...last.meta, attempt: last.meta.attempt + 1 } },
      options,
    );
  }

  private async send(call: TelnyxCall, document: TelnyxWebhook, options: DeliveryOptions) {
    this.lastSent.set(call.callControlId, document);
    const body = JSON.stringify(document);
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signer =
      options.signature === 'invalid'
        ? generateEd25519KeyPair().privateKey
        : (options.signingKey ?? this.account(call.apiKey).keyPair.privateKey);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'telnyx-webhooks',
    };
    if (options.signature !== 'missing') {
      headers['telnyx-signature-ed25519'] = telnyxSignature(signer, timestamp, body);
      headers['telnyx-timestamp'] = timestamp;
    }
    const delivery = await this.deliver({
      callId: call.callControlId,
      kind: 'status',
      event: document.data.event_type,
      method: 'POST',
      url: document.meta.delivered_to,
      headers,
      body,
      payload: document,
    });
    return delivery.status;
  }

  protected async progress(id: string, outcome: Exclude<AutoOutcome, 'hold'>): Promise<void> {
    const causes = { busy: 'user_busy', 'no-answer': 'timeout', failed: 'call_rejected' };
    if (outcome !== 'failed') await this.advanceCall(id, 'call.initiated');
    if (outcome === 'completed') {
      await this.advanceCall(id, 'call.answered');
      // Asked for detection, Telnyx reports its verdict after the answer: a person.
      if (this.detects(id)) await this.advanceCall(id, 'call.machine.detection.ended');
      await this.converse('provider_three', id);
      await this.advanceCall(id, 'call.hangup');
    } else {
      await this.advanceCall(id, 'call.hangup', { hangup_cause: causes[outcome] });
    }
  }

  /** The stream_url of the call's `streaming_start` (Switchboard sends it once answered). */
  protected override streamInstructions(id: string): StreamInstructions | undefined {
    const started = this.call(id).actions.find((action) => action.action === 'streaming_start');
    const url = (started?.body as { stream_url?: unknown } | undefined)?.stream_url;
    return typeof url === 'string' ? telnyxStream({ stream_url: url }) : undefined;
  }

  protected override hangupRequested(id: string): boolean {
    return this.call(id).hangupRequested;
  }

  private detects(id: string): boolean {
    const params = this.call(id).params as Record<string, unknown> | null;
    const asked = params?.answering_machine_detection;
    return typeof asked === 'string' && asked !== 'disabled';
  }

  protected errorResponse(status: number, message?: string, retryAfter?: number): FakeResponse {
    return telnyxErrorFor(status, message, retryAfter);
  }
}
