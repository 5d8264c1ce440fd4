import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../common/safe-equal';
import { byCodeUnit, formParams } from '../callback-params';

/** X-Twilio-Signature: base64 HMAC-SHA1 over the full URL and the sorted `key+value` params. */
export function twilioSignature(authToken: string, url: string, rawBody: string): string {
  const params = formParams(rawBody);
  let data = url;
  for (const key of [...params.keys()].sort(byCodeUnit)) {
    for (const value of [...new Set(params.get(key))].sort(byCodeUnit)) data += key + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function verifyTwilioSignature(
  authToken: string,
  url: string,
  rawBody: string,
  header: string | undefined,
) {
  return header !== undefined && safeEqual(twilioSignature(authToken, url, rawBody), header);
}
