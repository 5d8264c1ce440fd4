// Every table of the service; drizzle-kit generates migrations from this index.
export * from '../modules/organizations/organizations.schema';
export * from '../modules/users/users.schema';
export * from '../modules/api-keys/api-keys.schema';
export * from '../modules/phones/phones.schema';
export * from '../modules/agents/agents.schema';
export * from '../modules/batches/batches.schema';
export * from '../modules/call-records/call-records.schema';
export * from '../modules/dnc/dnc.schema';
export * from '../modules/idempotency/idempotency.schema';
export * from '../modules/webhooks/webhooks.schema';
export * from '../modules/events/events.schema';
export * from '../modules/webhook-deliveries/webhook-deliveries.schema';
export * from '../modules/video-agents/video-agents.schema';
export * from '../modules/knowledge-bases/knowledge-bases.schema';
export * from '../modules/voice/media/stream-tokens.schema';
export * from '../modules/messaging/messaging.schema';
export * from '../modules/messaging/conversations/messaging-conversations.schema';
