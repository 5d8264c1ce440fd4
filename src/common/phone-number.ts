import { parsePhoneNumberFromString } from 'libphonenumber-js';
// The number types (mobile, fixed line) are only in the full metadata.
import { parsePhoneNumberFromString as parseWithTypes } from 'libphonenumber-js/max';

/**
 * A number written with its country code, `+` optional, in E.164 (`+14155551234`); undefined
 * when it is not a valid number.
 */
export function toE164(input: string): string | undefined {
  const compact = input.trim().replace(/[\s().-]/g, '');
  if (!/^\+?\d{6,16}$/.test(compact)) return undefined;
  const parsed = parsePhoneNumberFromString(compact.startsWith('+') ? compact : `+${compact}`);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** For log lines: `+1415***1234`. */
export function maskPhoneNumber(e164: string): string {
  return e164.length > 8 ? `${e164.slice(0, 5)}***${e164.slice(-4)}` : '***';
}

/**
 * Whether an E.164 number can be a mobile line, by the full metadata of its country plan (the
 * US and Canada do not tell fixed from mobile: FIXED_LINE_OR_MOBILE counts as mobile).
 */
export function isMobileNumber(e164: string): boolean {
  const type = parseWithTypes(e164)?.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}
