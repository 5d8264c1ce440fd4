import type { CallbackUrls, Integration } from '../telephony/telephony.types';

/**
 * Where a provider calls us back for one number. The token travels in the query string, which
 * request logs leave out; the provider signature covers the whole URL.
 */
export function callbackUrlsFor(
  publicBaseUrl: string,
  integration: Integration,
  phoneId: string,
  token: string,
): CallbackUrls {
  const base = `${publicBaseUrl}/api/telephony/${integration}/${phoneId}`;
  const query = `?token=${encodeURIComponent(token)}`;
  return {
    answerUrl: `${base}/answer${query}`,
    statusUrl: `${base}/status${query}`,
    applicationName: `switchboard_${phoneId}`,
  };
}

/**
 * The number's callback URLs for one call: `call` names our phone log, so every callback of the
 * call finds its attempt (Plivo and Twilio echo the URL; Telnyx also gets it as client_state).
 */
export function callbackUrlsForCall(urls: CallbackUrls, phoneLogId: string): CallbackUrls {
  const call = `&call=${encodeURIComponent(phoneLogId)}`;
  return { ...urls, answerUrl: `${urls.answerUrl}${call}`, statusUrl: `${urls.statusUrl}${call}` };
}
