import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { verifyWebhook } from '@app/webhooks';
import { loadConfig } from '../src/config';
import { createApp } from '../src/create-app';
import type { HttpFake } from '../test/fakes';
import { startProviderFakes, type ProviderFakes } from '../test/fakes/sandbox';
import { freePort } from '../test/support/free-port';
import { type ReceivedDelivery, WebhookReceiver } from '../test/support/webhook-receiver';

interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/** A signed event the receiver got, once its signature checked out (or why it did not). */
export type VerifiedEvent =
  { verified: true; type: string; data: EventData } | { verified: false; reason: string };
type EventData = Record<string, unknown> & { call_id: string };

/**
 * What the sandbox's demos run on: Switchboard on a throw-away embedded database beside the
 * three provider fakes and a local HTTPS webhook receiver, and an API client signed in as the
 * demo's admin. `close` stops everything and removes the data directory.
 */
export class SandboxServices {
  private token = '';

  private constructor(
    readonly fakes: ProviderFakes,
    readonly receiver: WebhookReceiver,
    readonly app: NestExpressApplication,
    /** http://127.0.0.1:port */
    readonly base: string,
    /** The demo's own data directory, unless DATABASE_URL chose a database. */
    readonly dataDir: string | undefined,
  ) {}

  /** `env` as the user gave it; `overrides` (the demo's own settings) win over it. */
  static async start(
    env: NodeJS.ProcessEnv,
    overrides: Record<string, string> = {},
  ): Promise<SandboxServices> {
    const fakes = await startProviderFakes();
    const receiver = await WebhookReceiver.start();
    const port = env.PORT ? Number(env.PORT) : await freePort();
    const dataDir = env.DATABASE_URL
      ? undefined
      : mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
    try {
      const config = loadConfig({
        LOG_LEVEL: 'warn',
        ...env,
        ...fakes.env,
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        // The receiver is on 127.0.0.1, with the test CA's certificate (NODE_EXTRA_CA_CERTS).
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        ...overrides,
      });
      const app = await createApp(config);
      await app.listen(port, '127.0.0.1');
      return new SandboxServices(fakes, receiver, app, `http://127.0.0.1:${port}`, dataDir);
    } catch (error) {
      await Promise.all([fakes.close(), receiver.close()]);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** The provider fakes by the names the output uses. */
  namedFakes(): Array<[string, HttpFake]> {
    return [
      ['Plivo', this.fakes.plivo.fake],
      ['Twilio', this.fakes.twilio.fake],
      ['Telnyx', this.fakes.telnyx.fake],
    ];
  }

  /** Signs up the demo's organization; later calls carry its token. */
  async register(): Promise<{ userId: string }> {
    const registered = await this.call<{ accessToken: string; user: { _id: string } }>(
      'POST',
      '/api/auth/register',
      {
        organizationName: 'Sandbox Demo',
        name: 'Demo Admin',
        email: 'demo@example.com',
        password: 'sandbox demo password',
      },
    );
    this.token = registered.accessToken;
    return { userId: registered.user._id };
  }

  /** One API call, its envelope's `data` back; a non-2xx answer throws with its message. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const form = body instanceof FormData;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(form ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const envelope = (await response.json()) as Envelope<T>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${envelope.message}`);
    return envelope.data;
  }

  /** Checks a delivery's signature with the webhook's secret, as a consumer would. */
  verify(delivery: ReceivedDelivery, secret: string): VerifiedEvent {
    try {
      const event = verifyWebhook<{ type: string; data: EventData }>(
        delivery.body,
        delivery.headers,
        secret,
      );
      return { verified: true, type: event.type, data: event.data };
    } catch (error) {
      return { verified: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Stops the service, the fakes (after their running calls) and the receiver; removes data. */
  async close(): Promise<void> {
    const fakes = this.namedFakes().map(([, fake]) => fake);
    for (const fake of fakes) fake.autoProgress = undefined;
    await Promise.all(fakes.map((fake) => fake.settled()));
    await this.app.close();
    await Promise.all([this.fakes.close(), this.receiver.close()]);
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
