import { type AppConfig } from '../../../config';
import { headerValue } from '../callback-params';
import { ProviderError } from '../provider-error';
import { type ProviderHttpOptions } from '../provider-http';
import {
  KEY_PRESS_TIMEOUT_MS,
  type CallbackUrls,
  type InboundCallback,
  type OwnedNumber,
  type ParsedCallStatus,
  type PlaceCallInput,
  type PlacedCallRef,
  type ProviderCredentials,
  type TelephonyProvider,
  type WebhookWiring,
  type TransferTarget,
  type WiringDrift,
} from '../telephony.types';
import { TelnyxApi, type TelnyxNumber } from './telnyx-api';
import { parseTelnyxStatusCallback } from './telnyx-callbacks';
import { verifyTelnyxSignature } from './telnyx-signature';

/** What a Call Control `speak` command says, and how. */
export interface TelnyxSpeech {
  text: string;
  /** `female`, `male` or an engine voice such as `Polly.Joanna`. */
  voice: string;
  /** BCP 47, e.g. en-US. */
  language: string;
  /** Makes the command idempotent at Telnyx (one per call and purpose). */
  commandId: string;
}

/** provider_three: Telnyx's v2 API (Bearer API key, JSON, a Call Control Application = app id). */
export class TelnyxProvider implements TelephonyProvider {
  readonly integration = 'provider_three' as const;
  private readonly api: TelnyxApi;

  constructor(
    private readonly config: AppConfig,
    httpOptions?: ProviderHttpOptions,
  ) {
    this.api = new TelnyxApi(config, httpOptions);
  }

  async validateCredentials(credentials: ProviderCredentials): Promise<void> {
    await this.api.call(credentials, { method: 'GET', path: '/balance', retry: true });
  }

  async verifyNumberOwnership(
    credentials: ProviderCredentials,
    e164: string,
  ): Promise<OwnedNumber> {
    // The filter takes digits only; a `+` would match nothing.
    const query = new URLSearchParams({
      'filter[phone_number]': e164.replace(/^\+/, ''),
      'page[size]': '20',
    });
    const { body } = await this.api.call<{ data: TelnyxNumber[] }>(credentials, {
      method: 'GET',
      path: `/phone_numbers?${query.toString()}`,
      retry: true,
    });
    const number = body.data.find(
      (candidate) => candidate.phone_number === e164 && candidate.status === 'active',
    );
    if (!number)
      throw new ProviderError(
        'not_owned',
        'The number is not an active number of this Telnyx account',
      );
    return { e164, providerNumberId: number.id };
  }

  /** Points the Call Control Application named by the app id at us (creating one if needed). */
  async configureWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
  ) {
    const existing = credentials.accountId
      ? await this.api.findApplication(credentials, credentials.accountId)
      : undefined;
    let appId: string;
    if (existing) {
      appId = existing.id;
      // An update must repeat the name; outbound calls need a voice profile on the app.
      const profileId = existing.outbound?.outbound_voice_profile_id
        ? undefined
        : await this.api.outboundProfileId(credentials);
      await this.api.call(credentials, {
        method: 'PATCH',
        path: `/call_control_applications/${encodeURIComponent(appId)}`,
        json: {
          application_name: existing.application_name,
          webhook_event_url: urls.statusUrl,
          ...(profileId ? { outbound: { outbound_voice_profile_id: profileId } } : {}),
        },
        retry: true,
      });
    } else {
      appId = await this.api.createApplication(credentials, urls);
    }
    try {
      await this.api.call(credentials, {
        method: 'PATCH',
        path: `/phone_numbers/${encodeURIComponent(number.providerNumberId)}`,
        json: { connection_id: appId },
        retry: true,
      });
    } catch (error) {
      // An application made for this set-up must not outlive it (best effort: the provider may be down).
      if (!existing) await this.api.deleteApplication(credentials, appId).catch(() => undefined);
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
    const { body } = await this.api.call<{ data: TelnyxNumber }>(credentials, {
      method: 'GET',
      path: `/phone_numbers/${encodeURIComponent(number.providerNumberId)}`,
      retry: true,
    });
    const drift: WiringDrift[] = [];
    const expectedApp = wiring.appId ?? null;
    if (body.data.connection_id !== expectedApp) {
      drift.push({
        field: 'phone_number.connection_id',
        expected: expectedApp,
        actual: body.data.connection_id,
      });
    }
    if (!expectedApp) return drift;
    const app = await this.api.findApplication(credentials, expectedApp);
    if (!app)
      drift.push({ field: 'call_control_application', expected: expectedApp, actual: null });
    else if (app.webhook_event_url !== urls.statusUrl) {
      drift.push({
        field: 'call_control_application.webhook_event_url',
        expected: urls.statusUrl,
        actual: app.webhook_event_url,
      });
    }
    return drift;
  }

  async placeCall(credentials: ProviderCredentials, input: PlaceCallInput) {
    const { body } = await this.api.call<{ data: { call_control_id: string } }>(credentials, {
      method: 'POST',
      path: '/calls',
      json: {
        connection_id: input.appId,
        to: input.to,
        from: input.from,
        webhook_url: input.urls.statusUrl,
        client_state: input.clientState
          ? Buffer.from(input.clientState).toString('base64')
          : undefined,
        timeout_secs: input.ringTimeoutSeconds,
        time_limit_secs: input.timeLimitSeconds,
        // The verdict comes after call.answered, while the stream already plays; `detect_beep`
        // adds call.machine.greeting.ended when the machine beeps (the message starts then).
        answering_machine_detection: input.machineDetection ? 'detect_beep' : undefined,
        ...(input.record ? { record: 'record-from-answer', record_format: 'mp3' } : {}),
      },
    });
    return { providerCallId: body.data.call_control_id };
  }

  /**
   * Call Control `speak`: text-to-speech on the live call; `call.speak.ended` follows. The
   * command id makes a repeated request a no-op at Telnyx, so it is safe to retry.
   */
  async speak(credentials: ProviderCredentials, providerCallId: string, speech: TelnyxSpeech) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/speak`,
      json: {
        payload: speech.text,
        payload_type: 'text',
        voice: speech.voice,
        language: speech.language,
        command_id: speech.commandId,
      },
      retry: true,
    });
  }

  /**
   * Call Control `gather_using_speak`: reads the text, then collects up to `maxDigits` keys;
   * `call.gather.ended` follows with the digits (or a timeout). Safe to retry (command id).
   */
  async gatherUsingSpeak(
    credentials: ProviderCredentials,
    providerCallId: string,
    gather: TelnyxSpeech & { maxDigits: number; timeoutMillis: number },
  ) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/gather_using_speak`,
      json: {
        payload: gather.text,
        payload_type: 'text',
        voice: gather.voice,
        language: gather.language,
        minimum_digits: 1,
        maximum_digits: gather.maxDigits,
        timeout_millis: gather.timeoutMillis,
        command_id: gather.commandId,
      },
      retry: true,
    });
  }

  /** Call Control `bridge`: joins the audio of two live calls; `call.bridged` follows on each. */
  async bridge(
    credentials: ProviderCredentials,
    providerCallId: string,
    otherCallId: string,
    commandId: string,
  ) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/bridge`,
      json: { call_control_id: otherCallId, command_id: commandId },
      retry: true,
    });
  }

  /**
   * Connects the call's audio to a media WebSocket (`streaming_start`); `params` are the
   * stream_* fields (URL, track, bidirectional mode and codec).
   */
  async startStreaming(
    credentials: ProviderCredentials,
    providerCallId: string,
    params: Record<string, string>,
    commandId: string,
  ) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/streaming_start`,
      json: { ...params, command_id: commandId },
      retry: true,
    });
  }

  /**
   * Telnyx only says whether the call is alive (`is_alive`); the outcome is the caller's to
   * infer. It forgets an ended call about 10 minutes after its end: a 404 for a call it gave us
   * the id of (placeCall) means the call is over, not that it never was.
   */
  async fetchCall(credentials: ProviderCredentials, { providerCallId }: PlacedCallRef) {
    let body: { data: { is_alive?: boolean; call_duration?: number } };
    try {
      ({ body } = await this.api.call<typeof body>(credentials, {
        method: 'GET',
        path: `/calls/${encodeURIComponent(providerCallId)}`,
        retry: true,
      }));
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found')
        return { alive: false, providerStatus: 'ended (forgotten by Telnyx)' };
      throw error;
    }
    const alive = body.data.is_alive === true;
    return {
      alive,
      providerStatus: alive ? 'alive' : 'ended',
      durationSeconds: body.data.call_duration,
    };
  }

  /** Call Control `send_dtmf`, 250 ms a digit. */
  async sendDigits(credentials: ProviderCredentials, providerCallId: string, digits: string) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/send_dtmf`,
      json: { digits, duration_millis: 250 },
      timeoutMs: KEY_PRESS_TIMEOUT_MS,
    });
    return true;
  }

  async hangupCall(credentials: ProviderCredentials, providerCallId: string) {
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/hangup`,
      json: {},
      retry: true,
    });
  }

  async transferCall(
    credentials: ProviderCredentials,
    providerCallId: string,
    target: TransferTarget,
  ) {
    // Telnyx dials the new leg and bridges it; that leg's events come to the call's status URL
    // with the call's client_state (and change nothing there).
    await this.api.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/transfer`,
      json: {
        to: target.to,
        from: target.from,
        webhook_url: target.eventsUrl,
        webhook_url_method: 'POST',
        client_state: Buffer.from(target.clientState).toString('base64'),
        command_id: `${target.clientState}-transfer`,
        timeout_secs: target.ringTimeoutSeconds,
      },
    });
  }

  /**
   * Ed25519 with the key of the number's account, else PROVIDER_THREE_PUBLIC_KEY (never both:
   * one account's key must not open another's numbers). Without either the URL token alone
   * decides only where the key is not required (embedded mode outside production); elsewhere
   * all are refused.
   */
  verifySignature(credentials: ProviderCredentials, callback: InboundCallback): boolean {
    const { providerThreePublicKey, providerThreeKeyRequired } = this.config.telephony;
    const publicKey = credentials.publicKey ?? providerThreePublicKey;
    if (!publicKey) return !providerThreeKeyRequired;
    return verifyTelnyxSignature(
      publicKey,
      callback.rawBody,
      headerValue(callback.headers, 'telnyx-signature-ed25519'),
      headerValue(callback.headers, 'telnyx-timestamp'),
    );
  }

  parseStatusCallback(callback: InboundCallback): ParsedCallStatus {
    return parseTelnyxStatusCallback(callback);
  }

  /** Telnyx has no <Dial>: a transfer's new leg reports on the status URL. */
  parseTransferCallback(): null {
    return null;
  }
}
