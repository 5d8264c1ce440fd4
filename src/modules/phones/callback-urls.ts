import type { CallbackUrls, Integration } from '../telephony/telephony.types';

/** One callback route of a number, its token in the query. */
const callbackUrl = (
  publicBaseUrl: string,
  integration: Integration,
  phoneId: string,
  route: 'answer' | 'status' | TransferRoute,
  token: string,
): string =>
  `${publicBaseUrl}/api/telephony/${integration}/${phoneId}/${route}?token=${encodeURIComponent(token)}`;

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
  return {
    answerUrl: callbackUrl(publicBaseUrl, integration, phoneId, 'answer', token),
    statusUrl: callbackUrl(publicBaseUrl, integration, phoneId, 'status', token),
    applicationName: `switchboard_${phoneId}`,
  };
}

const callQuery = (phoneLogId: string) => `&call=${encodeURIComponent(phoneLogId)}`;

/**
 * The number's callback URLs for one call: `call` names our phone log, so every callback of the
 * call finds its attempt (Plivo and Twilio echo the URL; Telnyx also gets it as client_state).
 */
export function callbackUrlsForCall(urls: CallbackUrls, phoneLogId: string): CallbackUrls {
  const call = callQuery(phoneLogId);
  return { ...urls, answerUrl: `${urls.answerUrl}${call}`, statusUrl: `${urls.statusUrl}${call}` };
}

type TransferRoute = 'transfer' | 'transfer-status' | 'transfer-briefing' | 'transfer-decision';

/**
 * One call's own callback route, verified like the number's other callbacks: `transfer`, where
 * the provider fetches the <Dial> of the call's transfer (Plivo `aleg_url`, Twilio `Url`);
 * `transfer-status`, where Twilio and Plivo report that <Dial> — the new party answering
 * (Twilio's <Number> statusCallback, Plivo's callbackUrl) and its end (its `action`, whose reply
 * is what the caller hears next); for a warm transfer, `transfer-briefing`, what the new party
 * hears before being put through (Twilio's <Number url>, Plivo's confirmSound), and
 * `transfer-decision`, the key they pressed (Twilio's <Gather action>).
 */
export function transferUrlForCall(
  route: TransferRoute,
  publicBaseUrl: string,
  integration: Integration,
  phoneId: string,
  token: string,
  phoneLogId: string,
): string {
  return callbackUrl(publicBaseUrl, integration, phoneId, route, token) + callQuery(phoneLogId);
}
