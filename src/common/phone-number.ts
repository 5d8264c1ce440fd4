import { parsePhoneNumberFromString } from 'libphonenumber-js';

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
