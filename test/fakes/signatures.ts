import {
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  randomInt,
  sign,
  type KeyObject,
} from 'node:crypto';

/** Form parameters as providers send them: a repeated key carries an array. */
export type SignedParams = Record<string, string | string[]>;

const asList = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);
const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- Twilio

/**
 * `X-Twilio-Signature`: base64 HMAC-SHA1 (auth token) over the full URL Twilio requested
 * (query included) followed by every POST parameter as key+value, keys sorted; an array's
 * values are de-duplicated and sorted (twilio-node `src/webhooks/webhooks.ts`).
 */
export function twilioSignedString(url: string, params: SignedParams = {}): string {
  let data = url;
  for (const key of Object.keys(params).sort(codeUnitOrder)) {
    for (const value of [...new Set(asList(params[key]))].sort(codeUnitOrder)) data += key + value;
  }
  return data;
}

export function twilioSignature(authToken: string, url: string, params: SignedParams = {}): string {
  return createHmac('sha1', authToken).update(twilioSignedString(url, params)).digest('base64');
}

// ---------------------------------------------------------------- Plivo V3

export type PlivoMethod = 'GET' | 'POST';

function sortedQuery(pairs: SignedParams): string {
  return Object.keys(pairs)
    .sort(codeUnitOrder)
    .flatMap((key) => [...asList(pairs[key])].sort(codeUnitOrder).map((v) => `${key}=${v}`))
    .join('&');
}

function mergeParams(into: SignedParams, key: string, value: string): void {
  const existing = into[key];
  if (existing === undefined) into[key] = value;
  else into[key] = [...asList(existing), value];
}

/**
 * The string Plivo signs (plivo-node `lib/utils/v3Security.js`): `scheme://host[:port]/path`
 * as configured, then the sorted query (plus, for GET, the request parameters), then for a POST
 * with a body every parameter as key+value.
 */
export function plivoV3SignedString(
  method: PlivoMethod,
  url: string,
  params: SignedParams = {},
): string {
  const withoutFragment = url.split('#')[0];
  const queryAt = withoutFragment.indexOf('?');
  const base = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const query: SignedParams = {};
  if (queryAt !== -1) {
    for (const [key, value] of new URLSearchParams(withoutFragment.slice(queryAt + 1)))
      mergeParams(query, key, value);
  }
  if (method === 'GET') {
    for (const [key, value] of Object.entries(params))
      for (const v of asList(value)) mergeParams(query, key, v);
    const q = sortedQuery(query);
    return q === '' ? base : `${base}?${q}`;
  }
  const q = sortedQuery(query);
  const hasBody = Object.keys(params).length > 0;
  let signed = base;
  if (q !== '' || hasBody) signed += `?${q}`;
  if (q !== '' && hasBody) signed += '.';
  for (const key of Object.keys(params).sort(codeUnitOrder)) {
    for (const value of [...asList(params[key])].sort(codeUnitOrder)) signed += key + value;
  }
  return signed;
}

/** `X-Plivo-Signature-V3`: base64 HMAC-SHA256 (auth token) over `signedString + "." + nonce`. */
export function plivoV3Signature(
  authToken: string,
  method: PlivoMethod,
  url: string,
  params: SignedParams,
  nonce: string,
): string {
  return createHmac('sha256', authToken)
    .update(`${plivoV3SignedString(method, url, params)}.${nonce}`)
    .digest('base64');
}

/** A fresh numeric nonce, as Plivo sends in `X-Plivo-Signature-V3-Nonce`. */
export function plivoNonce(): string {
  let nonce = '';
  for (let i = 0; i < 20; i += 1) nonce += String(randomInt(10));
  return nonce;
}

// ---------------------------------------------------------------- Telnyx Ed25519

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface Ed25519KeyPair {
  privateKey: KeyObject;
  /** Raw 32-byte public key, base64: the form Mission Control shows and Switchboard configures. */
  publicKey: string;
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey: der.subarray(ED25519_SPKI_PREFIX.length).toString('base64') };
}

/** `telnyx-signature-ed25519`: base64 Ed25519 signature over `timestamp + "|" + rawBody`. */
export function telnyxSignature(privateKey: KeyObject, timestamp: string, rawBody: string): string {
  return sign(null, Buffer.from(`${timestamp}|${rawBody}`, 'utf8'), privateKey).toString('base64');
}

/** The verifying key for a raw base64 public key (what Switchboard's adapter has to build). */
export function ed25519PublicKeyFromRaw(rawBase64: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(rawBase64, 'base64')]),
    format: 'der',
    type: 'spki',
  });
}
