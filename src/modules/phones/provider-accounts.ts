import { createHash } from 'node:crypto';
import type { Integration, ProviderCredentials } from '../telephony/telephony.types';

/**
 * Calls per second a provider account places when nothing else is said: Plivo's and Twilio's
 * documented defaults (queued beyond it, so a call claimed at 20:59 could ring after 21:00);
 * Telnyx publishes none for Call Control, and starts accounts at 2 concurrent calls, so 1.
 */
export const ACCOUNT_CALLS_PER_SECOND: Readonly<Record<Integration, number>> = {
  provider_one: 2,
  provider_two: 1,
  provider_three: 1,
};

/**
 * What names the account at the provider, hashed: the Plivo auth id or the Twilio account SID;
 * for Telnyx, whose numbers carry no account id, the account's public key when given, else the
 * API key (two keys of one Telnyx account without a public key are then paced apart).
 */
export function accountKeyOf(
  integration: Integration,
  credentials: ProviderCredentials,
  publicKey: string | null,
): string {
  const names =
    integration === 'provider_three' ? (publicKey ?? credentials.secret) : credentials.accountId;
  return createHash('sha256').update(`${integration}\n${names}`).digest('hex');
}
