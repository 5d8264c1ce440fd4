import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../common/safe-equal';
import { byCodeUnit, formParams } from '../callback-params';

/** Plivo signature V3: HMAC-SHA256 over the URL, its sorted query, the sorted body and the nonce. */
export function plivoSignatureV3(
  authToken: string,
  method: 'GET' | 'POST',
  url: string,
  rawBody: string,
  nonce: string,
): string {
  const parsed = new URL(url);
  const base = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  const query = new Map<string, string[]>();
  for (const [key, value] of parsed.searchParams)
    query.set(key, [...(query.get(key) ?? []), value]);
  const body = formParams(rawBody);
  if (method === 'GET')
    for (const [key, values] of body) query.set(key, [...(query.get(key) ?? []), ...values]);
  const q = [...query.keys()]
    .sort(byCodeUnit)
    .flatMap((key) =>
      query
        .get(key)!
        .sort(byCodeUnit)
        .map((value) => `${key}=${value}`),
    )
    .join('&');
  let signed = base;
  if (method === 'POST' && body.size > 0) {
    signed += `?${q}${q ? '.' : ''}`;
    for (const key of [...body.keys()].sort(byCodeUnit)) {
      for (const value of body.get(key)!.sort(byCodeUnit)) signed += key + value;
    }
  } else if (q) {
    signed += `?${q}`;
  }
  return createHmac('sha256', authToken).update(`${signed}.${nonce}`, 'utf8').digest('base64');
}

/** The header may carry several comma-separated signatures; one match suffices. */
export function verifyPlivoSignatureV3(
  authToken: string,
  method: 'GET' | 'POST',
  url: string,
  rawBody: string,
  nonce: string | undefined,
  header: string | undefined,
): boolean {
  if (!nonce || !header) return false;
  const expected = plivoSignatureV3(authToken, method, url, rawBody, nonce);
  return header.split(',').some((candidate) => safeEqual(expected, candidate.trim()));
}
