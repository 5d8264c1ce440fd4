import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { WebhookTargetGuard } from './ssrf';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook endpoints of an organization. Exports what delivery needs: the row reader, the secrets
 * that sign, and the SSRF guard (WEBHOOK_DNS_RESOLVER comes from the global WebhookDnsModule).
 */
@Module({
  controllers: [WebhooksController],
  providers: [SecretBox, WebhookSecrets, WebhookTargetGuard, WebhooksRepository, WebhooksService],
  exports: [WebhookSecrets, WebhookTargetGuard, WebhooksRepository],
})
export class WebhooksModule {}
