import { createHash, randomBytes } from 'node:crypto';
import {
  HttpFake,
  type AutoOutcome,
  type FakeResponse,
  type FaultMatch,
  type RouteContext,
} from './http-fake';
import {
  graphError,
  graphId,
  type GraphBusinessAccount,
  type GraphMediaFile,
  type GraphNumber,
} from './graph.model';
import { hubSignature, newWamid } from './graph.webhooks';

export { graphError, sampleTemplate } from './graph.model';
export type { GraphBusinessAccount, GraphMediaFile, GraphNumber } from './graph.model';
export { hubSignature, statusEvent, textMessageEvent } from './graph.webhooks';

/** A message the business sent through `POST /{phone-number-id}/messages`. */
export interface GraphSentMessage {
  id: string;
  phoneNumberId: string;
  /** The phone number it went to ('' when sent to a business-scoped user id). */
  to: string;
  /** The business-scoped user id it went to (`recipient`), when sent without `to`. */
  recipient?: string;
  type: string;
  /** The text body, for text messages. */
  text?: string;
  template?: { name: string; language: { code: string }; components?: unknown[] };
}

/** A read receipt the business sent (`status: read`), with or without the typing indicator. */
export interface GraphReadReceipt {
  phoneNumberId: string;
  /** The customer's wamid marked read (and every message before it). */
  messageId: string;
  typing: boolean;
  receivedAt: Date;
}

const isReadReceipt = (body: unknown): boolean =>
  (body as { status?: unknown } | undefined)?.status === 'read';

/**
 * The read receipts among the sends (`POST /{phone-number-id}/messages`), to fault them alone:
 * `graph.failNext(n, 503, READ_RECEIPTS)`, `graph.stallNext(n, READ_RECEIPTS)`.
 */
export const READ_RECEIPTS: FaultMatch = {
  method: 'POST',
  path: /\/messages$/,
  body: isReadReceipt,
};

/** The sends of a number, read receipts aside: `graph.failNext(2, 500, messageSends(id))`. */
export const messageSends = (phoneNumberId: string): FaultMatch => ({
  method: 'POST',
  path: `/${phoneNumberId}/messages`,
  body: (body) => !isReadReceipt(body),
});

/** The lookups of one media (`GET /{media-id}`): `graph.failNext(3, 500, mediaLookups(id))`. */
export const mediaLookups = (mediaId: string): FaultMatch => ({
  method: 'GET',
  path: new RegExp(`^/v\\d+\\.\\d+/${mediaId}$`),
});
/** Media downloads (the URLs lookups hand out): `graph.delayNext(1, 1500, MEDIA_DOWNLOADS)`. */
export const MEDIA_DOWNLOADS: FaultMatch = {
  method: 'GET',
  path: /^\/whatsapp_business\/attachments\/$/,
};

/** How long a media download URL works (Meta: 5 minutes). */
const MEDIA_URL_TTL_MS = 5 * 60_000;
/** A business-scoped user id: country code, a period, up to 128 letters and digits. */
const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

const NUMBER_FIELDS = [
  'id',
  'display_phone_number',
  'verified_name',
  'quality_rating',
  'code_verification_status',
  'platform_type',
  'throughput',
] as const;

/**
 * Meta's Graph API as the WhatsApp Cloud API uses it (`https://graph.facebook.com/v{N}.0`):
 * Bearer tokens that grant business accounts, phone number lookup with `fields`, the
 * per-number webhook override, `subscribed_apps`, cursor-paged `phone_numbers` and
 * `message_templates`, sends and read receipts (with the typing indicator; fault them alone with
 * READ_RECEIPTS), with `{ error: { code, … } }` errors (190 for a token it does not know).
 */
export class GraphFake extends HttpFake {
  readonly accounts = new Map<string, GraphBusinessAccount>();
  /** Access token → the business accounts it may manage. */
  readonly tokens = new Map<string, Set<string>>();
  /** API versions seen in request paths. */
  readonly versions = new Set<string>();
  /** Every message accepted for sending, in order. */
  readonly sent: GraphSentMessage[] = [];
  /** Recipient wa_id → the Graph error code a send to it answers (131026, 131047, …). */
  readonly refusedRecipients = new Map<string, number>();
  /** Every read receipt accepted, in order. */
  readonly readReceipts: GraphReadReceipt[] = [];
  /** Media customers sent, by id (`addMedia`; gone once expired). */
  readonly media = new Map<string, GraphMediaFile>();
  /** The download URLs handed out: their ticket → the media and when the URL stops working. */
  private readonly mediaUrls = new Map<string, { mediaId: string; expiresAt: number }>();

  static async start(): Promise<GraphFake> {
    const fake = new GraphFake();
    await fake.listen();
    return fake;
  }

  private constructor() {
    super();
    this.route('GET', '/whatsapp_business/attachments/', (ctx) => this.downloadMedia(ctx));
    this.route('GET', '/:version/:id/phone_numbers', (ctx) =>
      this.withAccount(ctx, (account) =>
        this.page(ctx, account.numbers.map(describeNumber(['id', ...NUMBER_FIELDS]))),
      ),
    );
    this.route('GET', '/:version/:id/message_templates', (ctx) =>
      this.withAccount(ctx, (account) => this.page(ctx, account.templates)),
    );
    this.route('POST', '/:version/:id/subscribed_apps', (ctx) =>
      this.withAccount(ctx, (account) => {
        account.subscribed = true;
        return { status: 200, body: { success: true } };
      }),
    );
    this.route('GET', '/:version/:id/subscribed_apps', (ctx) =>
      this.withAccount(ctx, (account) => ({
        status: 200,
        body: {
          data: account.subscribed
            ? [{ whatsapp_business_api_data: { id: '1', name: 'Switchboard' } }]
            : [],
        },
      })),
    );
    this.route('POST', '/:version/:id/messages', (ctx) =>
      this.withNumber(ctx, (number) =>
        isReadReceipt(ctx.req.body)
          ? this.acceptReadReceipt(number, ctx)
          : this.acceptMessage(number, ctx),
      ),
    );
    this.route('GET', '/:version/:id', (ctx) =>
      this.media.has(ctx.params.id)
        ? this.lookUpMedia(ctx)
        : this.withNumber(ctx, (number, account) => {
            const fields = String(ctx.req.query.fields ?? 'id').split(',');
            const body: Record<string, unknown> = describeNumber(fields.filter(isNumberField))(
              number,
            );
            if (fields.includes('webhook_configuration')) {
              body.webhook_configuration = {
                ...(number.override ? { phone_number: number.override.url } : {}),
                ...(account.subscribed ? { application: 'https://app.example/default' } : {}),
              };
            }
            return { status: 200, body: { ...body, id: number.id } };
          }),
    );
    this.route('POST', '/:version/:id', (ctx) =>
      this.withNumber(ctx, (number) => {
        const config = (
          ctx.req.body as { webhook_configuration?: Record<string, unknown> } | undefined
        )?.webhook_configuration;
        const url = config?.override_callback_uri;
        if (typeof url !== 'string') return graphError(400, 'webhook_configuration is required');
        if (url === '') {
          number.override = undefined;
          return { status: 200, body: { success: true } };
        }
        if (typeof config?.verify_token !== 'string' || config.verify_token === '')
          return graphError(400, 'verify_token is required with override_callback_uri');
        if (url.length > 200 || !url.startsWith('https://'))
          return graphError(
            400,
            'override_callback_uri must be an https URL of at most 200 characters',
          );
        number.override = { url, verifyToken: config.verify_token };
        return { status: 200, body: { success: true } };
      }),
    );
  }

  /** Every send request (accepted or not) of the number, read receipts aside. */
  sendRequests(phoneNumberId: string) {
    return this.requestsTo('POST', `/${phoneNumberId}/messages`).filter(
      (request) => !isReadReceipt(request.body),
    );
  }

  // ------------------------------------------------------------ seeding

  /** A business account with `numbers` phone numbers, and a token that manages it. */
  addAccount(init: { numbers?: number; token?: string } = {}): {
    account: GraphBusinessAccount;
    token: string;
  } {
    const account: GraphBusinessAccount = {
      id: graphId(),
      numbers: [],
      templates: [],
      subscribed: false,
    };
    for (let i = 0; i < (init.numbers ?? 1); i += 1) this.addNumber(account);
    this.accounts.set(account.id, account);
    const token = init.token ?? `EAAG${randomBytes(24).toString('base64url')}`;
    this.grant(token, account.id);
    return { account, token };
  }

  addNumber(account: GraphBusinessAccount, display = randomDisplayNumber()): GraphNumber {
    const number: GraphNumber = {
      id: graphId(),
      display_phone_number: display,
      verified_name: 'Acme Support',
      quality_rating: 'GREEN',
      code_verification_status: 'VERIFIED',
      platform_type: 'CLOUD_API',
      throughput: { level: 'STANDARD' },
    };
    account.numbers.push(number);
    return number;
  }

  grant(token: string, accountId: string): void {
    const granted = this.tokens.get(token) ?? new Set<string>();
    granted.add(accountId);
    this.tokens.set(token, granted);
  }

  /** The token stops working (expired or revoked): every call with it answers code 190. */
  revoke(token: string): void {
    this.tokens.delete(token);
  }

  findNumber(id: string): { number: GraphNumber; account: GraphBusinessAccount } | undefined {
    for (const account of this.accounts.values()) {
      const number = account.numbers.find((candidate) => candidate.id === id);
      if (number) return { number, account };
    }
    return undefined;
  }

  /**
   * POSTs an event to the app's webhook the way the platform does: JSON, signed with the app
   * secret in `X-Hub-Signature-256`. Resolves with the app's answer (recorded in `deliveries`).
   */
  deliverEvent(url: string, appSecret: string, payload: unknown, signature?: string) {
    const body = JSON.stringify(payload);
    return this.deliver({
      callId: '',
      kind: 'status',
      event: 'messages',
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signature ?? hubSignature(appSecret, body),
      },
      body,
      payload,
    });
  }

  /**
   * A file a customer sent to `number` (a photo, a voice note, …): its id goes in the message
   * event, and `GET /{media-id}` with a token of the number's account hands out its URL.
   */
  addMedia(number: GraphNumber, file: { bytes: Buffer; mimeType: string }): GraphMediaFile {
    const found = this.findNumber(number.id);
    if (!found) throw new Error(`unknown number ${number.id}`);
    const media: GraphMediaFile = {
      id: graphId(),
      accountId: found.account.id,
      bytes: file.bytes,
      mimeType: file.mimeType,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    };
    this.media.set(media.id, media);
    return media;
  }

  /** The platform dropped the media (incoming media expire): its lookup answers 404. */
  expireMedia(id: string): void {
    this.media.delete(id);
  }

  /** Every download URL handed out so far stops working (404), as Meta's do after 5 minutes. */
  expireMediaUrls(): void {
    this.mediaUrls.clear();
  }

  // ------------------------------------------------------------ wire

  /**
   * `GET /{media-id}` (Meta "Media"): `{ messaging_product, url, mime_type, sha256, file_size,
   * id }`, the URL valid for 5 minutes and only with a token of the media's account.
   */
  private lookUpMedia(ctx: RouteContext): FakeResponse {
    const granted = this.granted(ctx);
    if (!(granted instanceof Set)) return granted;
    const media = this.media.get(ctx.params.id);
    if (!media) return graphError(404);
    if (!granted.has(media.accountId)) return graphError(403);
    const ticket = randomBytes(12).toString('base64url');
    this.mediaUrls.set(ticket, { mediaId: media.id, expiresAt: Date.now() + MEDIA_URL_TTL_MS });
    const query = new URLSearchParams({ mid: media.id, ext: '1', hash: ticket });
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: `${this.baseUrl}/whatsapp_business/attachments/?${query.toString()}`,
        mime_type: media.mimeType,
        sha256: media.sha256,
        file_size: media.bytes.length,
        id: media.id,
      },
    };
  }

  /** The media's bytes, for a URL not yet expired and a token of the media's account. */
  private downloadMedia(ctx: RouteContext): FakeResponse {
    const url = this.mediaUrls.get(String(ctx.req.query.hash ?? ''));
    const media = url && url.expiresAt > Date.now() ? this.media.get(url.mediaId) : undefined;
    if (!media || ctx.req.query.mid !== media.id) return { status: 404 };
    const token = /^Bearer\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1];
    if (token === undefined || !this.tokens.get(token)?.has(media.accountId))
      return { status: 401 };
    return { status: 200, bytes: media.bytes, headers: { 'content-type': media.mimeType } };
  }

  /**
   * Text and template sends (Meta "Send messages"): validates the body, answers the wamid. The
   * customer is `to` (a phone number) or, without it, `recipient` (a business-scoped user id;
   * one in `to` is refused).
   */
  private acceptMessage(number: GraphNumber, ctx: RouteContext): FakeResponse {
    const body = (ctx.req.body ?? {}) as Record<string, unknown>;
    const to = typeof body.to === 'string' ? body.to : '';
    const recipient = typeof body.recipient === 'string' ? body.recipient : '';
    if (body.messaging_product !== 'whatsapp') {
      return graphError(400, 'messaging_product must be whatsapp', 100);
    }
    const toUserId = to === '' && body.recipient !== undefined;
    if (toUserId ? !BSUID.test(recipient) : !/^\+?\d{6,16}$/.test(to)) {
      return graphError(400, `Invalid parameter: ${toUserId ? 'recipient' : 'to'}`, 100);
    }
    const addressee = toUserId ? recipient : to.replace(/^\+/, '');
    const refusal = this.refusedRecipients.get(addressee);
    if (refusal !== undefined) return graphError(400, 'Message failed to send', refusal);
    const message: GraphSentMessage = {
      id: newWamid(),
      phoneNumberId: number.id,
      to: toUserId ? '' : to,
      ...(toUserId ? { recipient } : {}),
      type: '',
    };
    if (body.type === 'text') {
      const text = (body.text as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string' || text === '' || text.length > 4096) {
        return graphError(400, 'text.body must be 1 to 4096 characters', 100);
      }
      Object.assign(message, { type: 'text', text });
    } else if (body.type === 'template') {
      const template = body.template as GraphSentMessage['template'] | undefined;
      if (typeof template?.name !== 'string' || typeof template.language?.code !== 'string') {
        return graphError(400, 'template.name and template.language.code are required', 131008);
      }
      Object.assign(message, { type: 'template', template });
    } else {
      return graphError(400, 'Unsupported message type', 131051);
    }
    this.sent.push(message);
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [
          toUserId ? { input: recipient, user_id: recipient } : { input: to, wa_id: addressee },
        ],
        messages: [{ id: message.id }],
      },
    };
  }

  /**
   * Meta "Mark messages as read" and "Typing indicators": `{ status: 'read', message_id,
   * typing_indicator?: { type: 'text' } }` answers `{ success: true }`; a malformed wamid 131009.
   */
  private acceptReadReceipt(number: GraphNumber, ctx: RouteContext): FakeResponse {
    const body = ctx.req.body as Record<string, unknown>;
    if (body.messaging_product !== 'whatsapp') {
      return graphError(400, 'messaging_product must be whatsapp', 100);
    }
    const messageId = body.message_id;
    if (typeof messageId !== 'string' || !messageId.startsWith('wamid.')) {
      return graphError(400, 'Parameter value is not valid: message_id', 131009);
    }
    const typing = body.typing_indicator as { type?: unknown } | undefined;
    if (typing !== undefined && typing.type !== 'text') {
      return graphError(400, 'typing_indicator.type must be text', 131009);
    }
    this.readReceipts.push({
      phoneNumberId: number.id,
      messageId,
      typing: typing !== undefined,
      receivedAt: ctx.req.receivedAt,
    });
    return { status: 200, body: { success: true } };
  }

  protected progress(_id: string, _outcome: Exclude<AutoOutcome, 'hold'>): Promise<void> {
    return Promise.resolve();
  }

  protected errorResponse(status: number, message?: string): FakeResponse {
    return graphError(status, message);
  }

  /** The token's accounts, or the 190 answer. */
  private granted(ctx: RouteContext): Set<string> | FakeResponse {
    this.versions.add(ctx.params.version);
    if (!/^v\d+\.\d+$/.test(ctx.params.version)) return graphError(400, 'Unknown path components');
    const token = /^Bearer\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1];
    const granted = token === undefined ? undefined : this.tokens.get(token);
    return granted ?? graphError(401);
  }

  private withAccount(
    ctx: RouteContext,
    handle: (account: GraphBusinessAccount) => FakeResponse,
  ): FakeResponse {
    const granted = this.granted(ctx);
    if (!(granted instanceof Set)) return granted;
    const account = this.accounts.get(ctx.params.id);
    if (!account) return graphError(404);
    if (!granted.has(account.id)) return graphError(403);
    return handle(account);
  }

  private withNumber(
    ctx: RouteContext,
    handle: (number: GraphNumber, account: GraphBusinessAccount) => FakeResponse,
  ): FakeResponse {
    const granted = this.granted(ctx);
    if (!(granted instanceof Set)) return granted;
    const found = this.findNumber(ctx.params.id);
    if (!found) return graphError(404);
    if (!granted.has(found.account.id)) return graphError(403);
    return handle(found.number, found.account);
  }

  /** One page of `items` from the `after` cursor, `limit` long (default 25), `next` while more. */
  private page(ctx: RouteContext, items: unknown[]): FakeResponse {
    const limit = Math.min(Number(ctx.req.query.limit ?? 25) || 25, 100);
    const after = ctx.req.query.after;
    const start =
      typeof after === 'string' ? Number(Buffer.from(after, 'base64url').toString()) : 0;
    const data = items.slice(start, start + limit);
    const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
    const paging: Record<string, unknown> = {
      cursors: { before: cursor(start), after: cursor(start + data.length) },
    };
    if (start + data.length < items.length) {
      const query = new URLSearchParams(ctx.req.query as Record<string, string>);
      query.set('after', cursor(start + data.length));
      paging.next = `${this.baseUrl}${ctx.req.path}?${query.toString()}`;
    }
    return { status: 200, body: { data, paging } };
  }
}

function isNumberField(field: string): field is (typeof NUMBER_FIELDS)[number] {
  return (NUMBER_FIELDS as readonly string[]).includes(field);
}

function describeNumber(fields: readonly string[]) {
  return (number: GraphNumber): Record<string, unknown> =>
    Object.fromEntries(fields.filter(isNumberField).map((field) => [field, number[field]]));
}

/** `+1 555-0xx-xxxx`: the platform's display form of a US test number. */
function randomDisplayNumber(): string {
  const digits = String(2_000_000 + (randomBytes(3).readUIntBE(0, 3) % 8_000_000));
  return `+1 415-${digits.slice(0, 3)}-${digits.slice(3, 7)}`;
}
