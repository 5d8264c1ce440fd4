import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { newObjectId } from '../../src/common/object-id';
import { Database } from '../../src/database';
import { EventsService, type RaisedEvent } from '../../src/modules/events/events.service';
import { generateWebhookSecret, WebhookSecrets } from '../../src/modules/webhooks/webhook-secrets';
import { type WebhookRow, webhooks } from '../../src/modules/webhooks/webhooks.schema';
import type { CallEventType } from '@app/contracts';
import type { RegisteredAdmin } from './factories';
import type { TestApp } from './test-app';

export interface TestWebhook {
  id: string;
  url: string;
  /** The signing secret, as the create response showed it. */
  plainSecret: string;
}

/** Creates a webhook through POST /api/webhooks (and PATCHes it inactive when asked). */
export async function createWebhook(
  t: TestApp,
  admin: RegisteredAdmin,
  values: { url: string; events?: string[]; active?: boolean },
): Promise<TestWebhook> {
  const auth = { Authorization: `Bearer ${admin.token}` };
  const created = await t.http
    .post('/api/webhooks')
    .set(auth)
    .send({ name: 'test hook', url: values.url, events: values.events ?? ['call.completed'] })
    .expect(201);
  const { _id: id, secret } = created.body.data as { _id: string; secret: string };
  if (values.active === false) {
    await t.http.patch(`/api/webhooks/${id}`).set(auth).send({ active: false }).expect(200);
  }
  return { id, url: values.url, plainSecret: secret };
}

/**
 * A webhook row written directly, for what the API rightly refuses to save (a loopback URL with
 * private targets disallowed) but delivery must still refuse if it ever finds one.
 */
export async function insertWebhook(
  app: INestApplicationContext,
  organizationId: string,
  values: { url: string; events?: string[]; active?: boolean; secret?: string },
): Promise<WebhookRow & { plainSecret: string }> {
  const database = app.get(Database);
  const secrets = app.get(WebhookSecrets);
  const plainSecret = values.secret ?? generateWebhookSecret();
  const id = newObjectId();
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
