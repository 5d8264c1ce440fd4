import { randomBytes } from 'node:crypto';
import type { FakeResponse } from './http-fake';

/** A business phone number of the platform, with its per-number webhook override. */
export interface GraphNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  code_verification_status: string;
  platform_type: string;
  throughput: { level: string };
  /** Override URL and the verify token it was set with (the platform keeps the token private). */
  override?: { url: string; verifyToken: string };
}

/** A WhatsApp Business Account: its numbers, templates and whether our app is subscribed. */
export interface GraphBusinessAccount {
  id: string;
  numbers: GraphNumber[];
  templates: Record<string, unknown>[];
  subscribed: boolean;
}

/** A photo, voice note, … a customer sent to a number: `GET /{media-id}` finds it. */
export interface GraphMediaFile {
  id: string;
  /** The business account of the number it was sent to: only its tokens may fetch it. */
  accountId: string;
  bytes: Buffer;
  mimeType: string;
  sha256: string;
}

export const graphId = (): string =>
  String(
    100_000_000_000_000n + (BigInt(`0x${randomBytes(6).toString('hex')}`) % 899_999_999_999_999n),
  );

/** Graph error codes by the HTTP status a fault asks for (Meta "Error codes"). */
const CODES: Record<number, { code: number; type: string; message: string; subcode?: number }> = {
  400: { code: 100, type: 'OAuthException', message: 'Invalid parameter' },
  401: {
    code: 190,
    type: 'OAuthException',
    message: 'Invalid OAuth access token - Cannot parse access token',
  },
  403: {
    code: 10,
    type: 'OAuthException',
    message: 'Application does not have permission for this action',
  },
  404: {
    code: 100,
    type: 'GraphMethodException',
    message:
      'Unsupported get request. Object with ID does not exist, cannot be loaded due to missing permissions, or does not support this operation',
    subcode: 33,
  },
  429: { code: 130429, type: 'OAuthException', message: 'Rate limit hit' },
  500: { code: 1, type: 'OAuthException', message: 'An unknown error occurred' },
};

/** `{ error: { message, type, code, error_subcode?, fbtrace_id } }` as the Graph API answers. */
export function graphError(status: number, message?: string, code?: number): FakeResponse {
  const known = CODES[status] ?? CODES[500];
  const actual = code ?? known.code;
  return {
    status,
    body: {
      error: {
        message: `(#${actual}) ${message ?? known.message}`,
        type: known.type,
        code: actual,
        ...(known.subcode !== undefined && code === undefined
          ? { error_subcode: known.subcode }
          : {}),
        fbtrace_id: `A${randomBytes(8).toString('base64url')}`,
      },
    },
  };
}

/** A template as `GET /{waba}/message_templates` lists it, with a positional body variable. */
export function sampleTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: graphId(),
    name: `order_update_${randomBytes(3).toString('hex')}`,
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order {{2}} shipped.',
        example: { body_text: [['Ana', 'A-17']] },
      },
    ],
    ...overrides,
  };
}
