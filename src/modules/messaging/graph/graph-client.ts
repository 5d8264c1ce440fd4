import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../../config';
import { sendRequest } from '../../../http/outbound-request';
import { ProviderError } from '../../telephony/provider-error';
import { bearerAuth, ProviderHttp, type ProviderRequest } from '../../telephony/provider-http';
import { GraphError } from './graph-error';
import { downloadFailure, isPlatformMediaUrl } from './graph-media';
import type {
  GraphMedia,
  GraphMediaDownload,
  GraphOutgoingMessage,
  GraphPage,
  GraphPhoneNumber,
  GraphRecipient,
  GraphSendAnswer,
  GraphTemplate,
  GraphWebhookConfiguration,
} from './graph.types';

const PAGE_SIZE = 100;
/** A WABA holds at most a few thousand templates; more pages than this is a loop. */
const MAX_PAGES = 100;
const TEMPLATE_FIELDS = 'id,name,language,category,status,components,parameter_format';
/** A media lookup is a small read: bounded well below a whole download. */
const MEDIA_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The messaging platform's Graph API (WhatsApp Cloud API) through ProviderHttp: base URL
 * MESSAGING_API_URL, version MESSAGING_API_VERSION, the access token as a Bearer header only
 * (ProviderHttp keeps it out of every message). Errors become GraphError by the platform's code.
 */
@Injectable()
export class GraphClient {
  private readonly http = new ProviderHttp('Messaging platform', describeGraphError);
  private readonly base: string;

  constructor(@InjectConfig() config: AppConfig) {
    this.base = `${config.messaging.apiUrl}/${config.messaging.apiVersion}`;
  }

  getPhoneNumber(token: string, phoneNumberId: string): Promise<GraphPhoneNumber> {
    return this.get(token, `/${encodeURIComponent(phoneNumberId)}`, {
      fields: 'id,display_phone_number,verified_name,quality_rating',
    });
  }

  /** Ids of every phone number of the business account, all pages. */
  async listPhoneNumberIds(token: string, businessAccountId: string): Promise<string[]> {
    const numbers = await this.getAll<{ id: string }>(
      token,
      `/${encodeURIComponent(businessAccountId)}/phone_numbers`,
      { fields: 'id', limit: String(PAGE_SIZE) },
    );
    return numbers.map((number) => number.id);
  }

  /** Subscribes our app to the business account's webhooks (idempotent at the platform). */
  async subscribeApp(token: string, businessAccountId: string): Promise<void> {
    await this.send(token, {
      method: 'POST',
      url: `${this.base}/${encodeURIComponent(businessAccountId)}/subscribed_apps`,
    });
  }

  /** The per-number override: this number's events go to `url` instead of the app's default. */
  async setWebhookOverride(
    token: string,
    phoneNumberId: string,
    url: string,
    verifyToken: string,
  ): Promise<void> {
    await this.send(token, {
      method: 'POST',
      url: `${this.base}/${encodeURIComponent(phoneNumberId)}`,
      json: { webhook_configuration: { override_callback_uri: url, verify_token: verifyToken } },
    });
  }

  async getWebhookConfiguration(
    token: string,
    phoneNumberId: string,
  ): Promise<GraphWebhookConfiguration> {
    const number = await this.get<{ webhook_configuration?: GraphWebhookConfiguration }>(
      token,
      `/${encodeURIComponent(phoneNumberId)}`,
      { fields: 'webhook_configuration' },
    );
    return number.webhook_configuration ?? {};
  }

  /** Every template of the business account, following `paging.next` to the last page. */
  listTemplates(token: string, businessAccountId: string): Promise<GraphTemplate[]> {
    return this.getAll<GraphTemplate>(
      token,
      `/${encodeURIComponent(businessAccountId)}/message_templates`,
      { fields: TEMPLATE_FIELDS, limit: String(PAGE_SIZE) },
    );
  }

  /**
   * Sends one message (`text` or `template` body, without `messaging_product` and the recipient)
   * and answers the platform's message id. The customer's phone number goes in `to`; a customer
   * known only by their business-scoped user id in `recipient` (the platform drops a user id
   * sent in `to`, and prefers `to` when both are given). Never repeated here: the platform has no
   * idempotency key, so the caller decides whether a failure is worth a second message.
   */
  async sendMessage(
    token: string,
    phoneNumberId: string,
    to: GraphRecipient,
    message: GraphOutgoingMessage,
  ): Promise<string> {
    const addressee = 'phone' in to ? { to: to.phone } : { recipient: to.userId };
    const body = await this.send<GraphSendAnswer>(token, {
      method: 'POST',
      url: `${this.base}/${encodeURIComponent(phoneNumberId)}/messages`,
      json: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        ...addressee,
        ...message,
      },
    });
    const id = body?.messages?.[0]?.id;
    if (typeof id !== 'string' || id === '') {
      throw new GraphError('upstream', 'Messaging platform answered without a message id');
    }
    return id;
  }

  /**
   * Marks the customer's message (and those before it) read and shows them the typing
   * indicator, which the platform clears with our next message or after 25 s. Not repeated:
   * the caller bounds it with `timeoutMs` and goes on without it.
   */
  async markReadAndTyping(
    token: string,
    phoneNumberId: string,
    messageId: string,
    timeoutMs: number,
  ): Promise<void> {
    await this.send(token, {
      method: 'POST',
      url: `${this.base}/${encodeURIComponent(phoneNumberId)}/messages`,
      json: {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
        typing_indicator: { type: 'text' },
      },
      timeoutMs,
    });
  }

  /**
   * `GET /{media-id}`: a customer's media as the platform holds it, with a download URL valid
   * for a few minutes. The platform keeps incoming media for a limited time: an expired id
   * answers not_found.
   */
  async getMedia(token: string, mediaId: string): Promise<GraphMedia> {
    const media = await this.get<Partial<GraphMedia> | undefined>(
      token,
      `/${encodeURIComponent(mediaId)}`,
      {},
      MEDIA_LOOKUP_TIMEOUT_MS,
    );
    if (typeof media?.url !== 'string' || !isPlatformMediaUrl(media.url, this.base)) {
      throw new GraphError('upstream', 'Messaging platform answered a media without a usable URL');
    }
    return { ...media, url: media.url };
  }

  /**
   * Opens a media download URL of `getMedia` with the bearer token (the platform's URLs need it)
   * and answers its body as it arrives. `signal` bounds the whole download; the token goes to
   * the platform's own hosts only.
   */
  async openMedia(token: string, url: string, signal: AbortSignal): Promise<GraphMediaDownload> {
    if (!isPlatformMediaUrl(url, this.base)) {
      throw new GraphError('upstream', 'Messaging platform media URL is not the platform’s');
    }
    let response;
    try {
      response = await sendRequest(url, { method: 'GET', headers: bearerAuth(token), signal });
    } catch (error) {
      const timedOut = (error as { name?: unknown }).name === 'TimeoutError';
      throw new GraphError(
        'unreachable',
        `Messaging platform media could not be downloaded (${timedOut ? 'timed out' : 'network error'})`,
      );
    }
    if (!response.ok) {
      response.discard();
      throw downloadFailure(response.status);
    }
    const length = Number(response.header('content-length') ?? NaN);
    return {
      body: Readable.from(response.body),
      contentType: response.header('content-type'),
      length: Number.isFinite(length) ? length : undefined,
    };
  }

  private get<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    timeoutMs?: number,
  ): Promise<T> {
    const search = new URLSearchParams(query).toString();
    const url = `${this.base}${path}${search === '' ? '' : `?${search}`}`;
    return this.send<T>(token, { method: 'GET', url, retry: true, timeoutMs });
  }

  /**
   * Follows `paging.next` until it is absent (the Graph API's only end-of-list signal: a short
   * page is not one). A `next` off our configured origin is refused: the token never leaves it.
   */
  private async getAll<T>(
    token: string,
    path: string,
    query: Record<string, string>,
  ): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = `${this.base}${path}?${new URLSearchParams(query).toString()}`;
    for (let page = 0; url !== undefined; page += 1) {
      if (page === MAX_PAGES) {
        throw new GraphError('upstream', `Messaging platform listed more than ${MAX_PAGES} pages`);
      }
      const body: GraphPage<T> = await this.send(token, { method: 'GET', url, retry: true });
      items.push(...(Array.isArray(body?.data) ? body.data : []));
      url = body?.paging?.next;
      if (url !== undefined && new URL(url).origin !== new URL(this.base).origin) {
        throw new GraphError('upstream', 'Messaging platform paged to another origin');
      }
    }
    return items;
  }

  private async send<T>(token: string, request: Omit<ProviderRequest, 'headers'>): Promise<T> {
    try {
      const response = await this.http.request<T>({ ...request, headers: bearerAuth(token) });
      return response.body;
    } catch (error) {
      if (error instanceof ProviderError) throw GraphError.from(error);
      throw error;
    }
  }
}

function describeGraphError(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | undefined)?.error;
  if (typeof error?.message !== 'string') return undefined;
  return typeof error.code === 'number' ? `${error.message} (code ${error.code})` : error.message;
}
