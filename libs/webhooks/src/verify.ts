import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from '@app/contracts';
import { SIGNATURE_VERSION, signaturesEqual } from './signature';

/** Raised when a delivery is not authentic, too old or too new, or not a webhook body. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Incoming headers: a plain object (Node, Express: any case) or a Fetch `Headers`. */
export type IncomingHeaders =
  Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyOptions {
  /** Accepted clock difference, both ways (replay window). Default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's clock (tests). */
  now?: Date;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: IncomingHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** One `standardwebhooks` signer per secret; a rotation adds a secret, it does not churn. */
const signers = new Map<string, Webhook>();
const SIGNERS_KEPT = 100;

/**
 * The `standardwebhooks` instance of a `whsec_…` secret. Throws a TypeError for a secret that is
 * empty or not base64, so a misconfigured receiver fails at start (see assertSecrets).
 */
export function signerOf(secret: string): Webhook {
  let signer = signers.get(secret);
  if (signer === undefined) {
    try {
      signer = new Webhook(secret);
    } catch {
      throw new TypeError('Webhook secret is empty or not base64 (whsec_ followed by base64)');
    }
    if (signers.size >= SIGNERS_KEPT) signers.clear();
    signers.set(secret, signer);
  }
  return signer;
}

/**
 * Verifies a delivery and returns its parsed body `{ type, timestamp, data }`. Pass the raw body
 * exactly as received (not re-serialized JSON) and every secret that may sign (during your own
 * rotation). Any matching `v1` signature passes; other versions are ignored; comparison is
 * constant-time; `webhook-timestamp` must be within the tolerance of `now`, both ways.
 * Throws WebhookVerificationError otherwise. Deduplicate on `webhook-id`.
 *
 * The expected signatures are computed by the `standardwebhooks` package itself, so whatever it
 * accepts we accept. Its own `verify` is not called because it fixes the tolerance at 5 minutes
 * and reads the system clock; the window is checked here instead.
 */
export function verifyWebhook<T = WebhookEvent>(
  rawBody: string | Buffer,
  headers: IncomingHeaders,
  secrets: string | readonly string[],
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: VerifyOptions = {},
): T {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures)
    throw new WebhookVerificationError(
      'Missing webhook-id, webhook-timestamp or webhook-signature',
    );
  if (!/^\d{1,12}$/.test(timestampText))
    throw new WebhookVerificationError('Invalid webhook-timestamp');
  const timestamp = Number(timestampText);
  const skew = Math.floor(now.getTime() / 1000) - timestamp;
  if (skew > toleranceSeconds) throw new WebhookVerificationError('Message timestamp too old');
  if (-skew > toleranceSeconds) throw new WebhookVerificationError('Message timestamp too new');

  const received = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === SIGNATURE_VERSION && value)
    .map(([, value]) => value);
  const signedAt = new Date(timestamp * 1000);
  const expected = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    signerOf(secret).sign(id, signedAt, rawBody).slice(`${SIGNATURE_VERSION},`.length),
  );
  // Every comparison runs: the time taken does not tell which secret or signature matched.
  let matched = false;
  for (const signature of expected) {
    for (const candidate of received) matched = signaturesEqual(signature, candidate) || matched;
  }
  if (!matched) throw new WebhookVerificationError('No matching signature found');

  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString());
  } catch {
    throw new WebhookVerificationError('Body is not JSON');
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { type?: unknown }).type !== 'string' ||
    typeof (parsed as { timestamp?: unknown }).timestamp !== 'string' ||
    !('data' in parsed)
  ) {
    throw new WebhookVerificationError('Body is not { type, timestamp, data }');
  }
  return parsed as T;
}
