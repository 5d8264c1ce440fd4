import { type AppConfig } from '../../../config';
import { ProviderError } from '../provider-error';
import {
  bearerAuth,
  ProviderHttp,
  type ProviderHttpOptions,
  type ProviderRequest,
} from '../provider-http';
import type { CallbackUrls, ProviderCredentials } from '../telephony.types';

export interface TelnyxNumber {
  id: string;
  phone_number: string;
  status: string;
  connection_id: string | null;
}

export interface TelnyxApplication {
  id: string;
  application_name: string;
  webhook_event_url: string | null;
  outbound?: { outbound_voice_profile_id?: string | null };
}

export type TelnyxRequest = Omit<ProviderRequest, 'url' | 'headers'> & { path: string };

/** Telnyx's v2 REST API: Bearer API key, JSON both ways, `{errors:[{title,detail}]}` errors. */
export class TelnyxApi {
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

  call<T>(credentials: ProviderCredentials, request: TelnyxRequest) {
    const { path, ...rest } = request;
    return this.http.request<T>({
      ...rest,
      url: `${this.config.telephony.providerThreeApiUrl}/v2${path}`,
      headers: bearerAuth(credentials.secret),
    });
  }

  /** The Call Control Application, or undefined when the id names none of this account's. */
  async findApplication(credentials: ProviderCredentials, appId: string) {
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

  async createApplication(credentials: ProviderCredentials, urls: CallbackUrls): Promise<string> {
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

  async deleteApplication(credentials: ProviderCredentials, appId: string): Promise<void> {
    await this.call(credentials, {
      method: 'DELETE',
      path: `/call_control_applications/${encodeURIComponent(appId)}`,
      retry: true,
    });
  }

  /** Outbound calls need an Outbound Voice Profile on the application; the account's first one. */
  async outboundProfileId(credentials: ProviderCredentials): Promise<string | undefined> {
    const { body } = await this.call<{ data: { id: string }[] }>(credentials, {
      method: 'GET',
      path: '/outbound_voice_profiles',
      retry: true,
    });
    return body.data[0]?.id;
  }
}
