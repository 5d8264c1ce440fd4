export { type AddressClass, classifyAddress, isGlobalUnicast } from './address-class';
export {
  addressRefusal,
  checkUrlShape,
  checkWebhookTarget,
  type ResolvedAddress,
  type TargetPolicyOptions,
  type TargetVerdict,
  type WebhookDnsResolver,
} from './target-policy';
export {
  type GuardedLookup,
  SsrfBlockedError,
  systemDnsResolver,
  WEBHOOK_DNS_RESOLVER,
  WebhookTargetGuard,
} from './webhook-target.guard';
export { WebhookDnsModule } from './webhook-dns.module';
