import { GraphError, type GraphErrorKind } from './graph-error';

/** Meta's media hosts (lookaside.fbsbx.com serves downloads) besides the configured API. */
const PLATFORM_MEDIA_HOSTS = ['fbsbx.com', 'facebook.com', 'whatsapp.net'];

/**
 * A URL the bearer token may be sent to: the configured API's own origin (the fake in tests, a
 * proxy), or an https URL on one of Meta's hosts. Anything else would hand the token away.
 */
export function isPlatformMediaUrl(url: string, apiBase: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.origin === new URL(apiBase).origin) return true;
  return (
    target.protocol === 'https:' &&
    PLATFORM_MEDIA_HOSTS.some(
      (host) => target.hostname === host || target.hostname.endsWith(`.${host}`),
    )
  );
}

/** A media download answered `status`: its URL expired (404), the token was refused, an outage. */
export function downloadFailure(status: number): GraphError {
  const kind: GraphErrorKind =
    status === 404 || status === 410
      ? 'not_found'
      : status === 401 || status === 403
        ? 'auth'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'upstream'
            : 'invalid_request';
  return new GraphError(kind, `Messaging platform answered ${status} to the media download`);
}
