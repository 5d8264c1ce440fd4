import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { WebhookTargetGuard } from './ssrf';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Webhook endpoints of an organization. Exports what delivery needs: the row reader, the secrets
 * that sign, and the SSRF guard (WEBHOOK_DNS_RESOLVER comes from the global WebhookDnsModule).
 */
@Module({
  providers: [SecretBox, WebhookSecrets, WebhookTargetGuard, WebhooksRepository],
  exports: [WebhookSecrets, WebhookTargetGuard, WebhooksRepository],
})
export class WebhooksModule {}
