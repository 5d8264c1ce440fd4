import { type AppConfig } from '../../../config';
import { headerValue } from '../callback-params';
import { ProviderError } from '../provider-error';
import {
  bearerAuth,
  ProviderHttp,
  type ProviderHttpOptions,
  type ProviderRequest,
} from '../provider-http';
import type {
  CallbackUrls,
  InboundCallback,
  OwnedNumber,
  ParsedCallStatus,
  PlaceCallInput,
  ProviderCallEvent,
  ProviderCredentials,
  TelephonyProvider,
  WebhookWiring,
  WiringDrift,
} from '../telephony.types';
import { verifyTelnyxSignature } from './telnyx-signature';

interface TelnyxNumber {
  id: string;
  phone_number: string;
  status: string;
  connection_id: string | null;
}

interface TelnyxApplication {
  id: string;
  application_name: string;
  webhook_event_url: string | null;
  outbound?: { outbound_voice_profile_id?: string | null };
}

interface TelnyxEvent {
  data?: {
    event_type?: string;
    payload?: {
      call_control_id?: string;
      client_state?: string;
      hangup_cause?: string;
      recording_urls?: { mp3?: string; wav?: string };
    };
  };
}

// Hang-ups that end a connected call; any other cause means the call never connected.
const NORMAL_HANGUPS = new Set(['normal_clearing', 'time_limit']);

/** provider_three: Telnyx's v2 API (Bearer API key, JSON, a Call Control Application = app id). */
export class TelnyxProvider implements TelephonyProvider {
  readonly integration = 'provider_three' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: AppConfig,
    httpOptions?: ProviderHttpOptions,
  ) {
    this.http = new ProviderHttp(
      'Telnyx',
      (body) => {
        const error = (body as { errors?: { title?: string; detail?: string }[] } | undefined)
          ?.errors?.[0];
        return error ? [error.title, error.detail].filter(Boolean).join(': ') : undefined;
      },
      httpOptions,
    );
  }

  async validateCredentials(credentials: ProviderCredentials): Promise<void> {
    await this.call(credentials, { method: 'GET', path: '/balance', retry: true });
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
    const { body } = await this.call<{ data: TelnyxNumber[] }>(credentials, {
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
      ? await this.findApplication(credentials, credentials.accountId)
      : undefined;
    let appId: string;
    if (existing) {
      appId = existing.id;
      // An update must repeat the name; outbound calls need a voice profile on the app.
      const profileId = existing.outbound?.outbound_voice_profile_id
        ? undefined
        : await this.outboundProfileId(credentials);
      await this.call(credentials, {
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
      appId = await this.createApplication(credentials, urls);
    }
    await this.call(credentials, {
      method: 'PATCH',
      path: `/phone_numbers/${encodeURIComponent(number.providerNumberId)}`,
      json: { connection_id: appId },
      retry: true,
    });
    return { appId };
  }

  async inspectWebhooks(
    credentials: ProviderCredentials,
    number: OwnedNumber,
    urls: CallbackUrls,
    wiring: WebhookWiring,
  ): Promise<WiringDrift[]> {
    const { body } = await this.call<{ data: TelnyxNumber }>(credentials, {
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
    const app = await this.findApplication(credentials, expectedApp);
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
    const { body } = await this.call<{ data: { call_control_id: string } }>(credentials, {
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
      },
    });
    return { providerCallId: body.data.call_control_id };
  }

  async hangupCall(credentials: ProviderCredentials, providerCallId: string) {
    await this.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/hangup`,
      json: {},
      retry: true,
    });
  }

  async transferCall(
    credentials: ProviderCredentials,
    providerCallId: string,
    target: { url: string; to?: string },
  ) {
    await this.call(credentials, {
      method: 'POST',
      path: `/calls/${encodeURIComponent(providerCallId)}/actions/transfer`,
      json: { to: target.to, webhook_url: target.url },
    });
  }

  /** Ed25519 with PROVIDER_THREE_PUBLIC_KEY when configured; otherwise the URL token alone decides. */
  verifySignature(_credentials: ProviderCredentials, callback: InboundCallback): boolean {
    const publicKey = this.config.telephony.providerThreePublicKey;
    if (!publicKey) return true;
    return verifyTelnyxSignature(
      publicKey,
      callback.rawBody,
      headerValue(callback.headers, 'telnyx-signature-ed25519'),
      headerValue(callback.headers, 'telnyx-timestamp'),
    );
  }

  parseStatusCallback(callback: InboundCallback): ParsedCallStatus {
    let event: TelnyxEvent;
    try {
      event = JSON.parse(callback.rawBody) as TelnyxEvent;
    } catch {
      return { event: null, providerStatus: 'unparseable' };
    }
    const type = event.data?.event_type ?? '';
    const payload = event.data?.payload ?? {};
    let kind: ProviderCallEvent | null = null;
    if (type === 'call.initiated') kind = 'call.started';
    else if (type === 'call.answered') kind = 'call.answered';
    else if (type === 'call.hangup')
      kind = NORMAL_HANGUPS.has(payload.hangup_cause ?? '') ? 'call.completed' : 'call.failed';
    else if (type === 'call.recording.saved') kind = 'call.recording.available';
    return {
      event: kind,
      providerCallId: payload.call_control_id,
      providerStatus: type,
      hangupCause: payload.hangup_cause,
      recordingUrl: payload.recording_urls?.mp3 ?? payload.recording_urls?.wav,
      clientState: payload.client_state
        ? Buffer.from(payload.client_state, 'base64').toString('utf8')
        : undefined,
    };
  }

  private async findApplication(credentials: ProviderCredentials, appId: string) {
    try {
      const { body } = await this.call<{ data: TelnyxApplication }>(credentials, {
        method: 'GET',
        path: `/call_control_applications/${encodeURIComponent(appId)}`,
        retry: true,
      });
      return body.data;
    } catch (error) {
      if (
        error instanceof ProviderError &&
        (error.kind === 'not_found' || error.kind === 'invalid_request')
      ) {
        return undefined;
      }
      throw error;
    }
  }

  private async createApplication(
    credentials: ProviderCredentials,
    urls: CallbackUrls,
  ): Promise<string> {
    const profileId = await this.outboundProfileId(credentials);
    const { body } = await this.call<{ data: { id: string } }>(credentials, {
      method: 'POST',
      path: '/call_control_applications',
      json: {
        application_name: urls.applicationName,
        webhook_event_url: urls.statusUrl,
        webhook_api_version: '2',
        active: true,
        ...(profileId ? { outbound: { outbound_voice_profile_id: profileId } } : {}),
      },
    });
    return body.data.id;
  }

  /** Outbound calls need an Outbound Voice Profile on the application; the account's first one. */
  private async outboundProfileId(credentials: ProviderCredentials): Promise<string | undefined> {
    const { body } = await this.call<{ data: { id: string }[] }>(credentials, {
      method: 'GET',
      path: '/outbound_voice_profiles',
      retry: true,
    });
    return body.data[0]?.id;
  }

  private call<T>(
    credentials: ProviderCredentials,
    request: Omit<ProviderRequest, 'url' | 'headers'> & { path: string },
  ) {
    const { path, ...rest } = request;
    return this.http.request<T>({
      ...rest,
      url: `${this.config.telephony.providerThreeApiUrl}/v2${path}`,
      headers: bearerAuth(credentials.secret),
    });
  }
}
