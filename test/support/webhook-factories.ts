import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { EventsService, type RaisedEvent } from '../../src/modules/events/events.service';
import { generateWebhookSecret, WebhookSecrets } from '../../src/modules/webhooks/webhook-secrets';
import { type WebhookRow, webhooks } from '../../src/modules/webhooks/webhooks.schema';
import type { CallEventType } from '@app/contracts';

// Until the webhook resource (POST /api/webhooks) is merged, tests create rows directly.
export async function createWebhook(
  app: INestApplicationContext,
  organizationId: string,
  values: { url: string; events?: string[]; active?: boolean; secret?: string },
): Promise<WebhookRow & { plainSecret: string }> {
  const database = app.get(Database);
  const secrets = app.get(WebhookSecrets);
  const plainSecret = values.secret ?? generateWebhookSecret();
  const id = randomBytes(12).toString('hex');
  const [row] = await database.db
    .insert(webhooks)
    .values({
      id,
      organizationId,
      name: `hook ${id.slice(-4)}`,
      url: values.url,
      events: values.events ?? ['call.completed'],
      active: values.active ?? true,
      secret: secrets.seal(organizationId, id, plainSecret),
    })
    .returning();
  return { ...row, plainSecret };
}

export async function updateWebhook(
  app: INestApplicationContext,
  id: string,
  values: Partial<typeof webhooks.$inferInsert>,
): Promise<void> {
  await app.get(Database).db.update(webhooks).set(values).where(eq(webhooks.id, id));
}

/** Raises a call event the way domain code does: inside a Database transaction. */
export function raiseCallEvent(
  app: INestApplicationContext,
  organizationId: string,
  event: { type?: CallEventType; callId?: string; data?: Record<string, unknown> } = {},
): Promise<RaisedEvent> {
  return app.get(Database).transaction(() =>
    app.get(EventsService).raise(organizationId, {
      type: event.type ?? 'call.completed',
      callId: event.callId ?? `call-${randomBytes(4).toString('hex')}`,
      // Tests send partial payloads: delivery treats data as opaque.
      data: (event.data ?? { status: 'completed', duration_seconds: 42 }) as never,
    }),
  );
}
