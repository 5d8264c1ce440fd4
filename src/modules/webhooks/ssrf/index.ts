export { checkUrlShape, type ResolvedAddress, type WebhookDnsResolver } from './target-policy';
export { WEBHOOK_DNS_RESOLVER, WebhookTargetGuard } from './webhook-target.guard';
export { WebhookDnsModule } from './webhook-dns.module';
