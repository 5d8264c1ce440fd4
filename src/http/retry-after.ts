/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from
 * `now`; undefined when absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read '-5' as a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
