import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SECRET_PREFIX } from '@app/webhooks';
import { SecretBox } from '../../common/crypto/secret-box';
import type { WebhookRow } from './webhooks.schema';

/** Bytes of a generated secret (Standard Webhooks accepts 24 to 64). */
const WEBHOOK_SECRET_BYTES = 32;

/** A new Standard Webhooks symmetric secret: `whsec_` + base64 of random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

/** Binds a sealed secret to its webhook and organization (copied elsewhere, it won't open). */
const associatedData = (organizationId: string, webhookId: string) =>
  `webhooks:${organizationId}:${webhookId}`;

/** Opened secrets kept for signing; a webhook's sealed value changes whenever its secret does. */
const OPENED_CACHE_ENTRIES = 10_000;

/** Seals and opens webhook signing secrets; the only place that knows how they are stored. */
@Injectable()
export class WebhookSecrets {
  // Every delivery attempt signs; opening (AES-GCM) each time was ~6 % of a worker's CPU.
  private readonly opened = new Map<string, string>();

  constructor(private readonly box: SecretBox) {}

  seal(organizationId: string, webhookId: string, secret: string): string {
    return this.box.seal(secret, associatedData(organizationId, webhookId));
  }

  /**
   * The secrets that sign a delivery made at `now`: the current one, then the previous one
   * while its rotation grace period lasts (receivers accept any signature that matches).
   */
  signingSecrets(
    webhook: Pick<
      WebhookRow,
      'id' | 'organizationId' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'
    >,
    now: Date,
  ): string[] {
    const aad = associatedData(webhook.organizationId, webhook.id);
    const secrets = [this.open(webhook.secret, aad)];
    if (
      webhook.previousSecret &&
      webhook.previousSecretExpiresAt &&
      webhook.previousSecretExpiresAt > now
    ) {
      secrets.push(this.open(webhook.previousSecret, aad));
    }
    return secrets;
  }

  /** Keyed by the associated data too, so a sealed value copied to another row still fails. */
  private open(sealed: string, aad: string): string {
    const key = `${aad}|${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.box.open(sealed, aad);
      if (this.opened.size >= OPENED_CACHE_ENTRIES) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }
}
