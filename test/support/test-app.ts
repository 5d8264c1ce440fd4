import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Redis } from 'ioredis';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { loadConfig, type AppConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import type { WebhookDnsResolver } from '../../src/modules/webhooks/ssrf';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase, type TestDatabaseSettings } from './postgres';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  config: AppConfig;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Receives the app's JSON log lines (set LOG_LEVEL in env to see them). */
  logStream?: Writable;
  /** Use the real Redis with a key prefix unique to this app. */
  redis?: boolean;
  /** Answers the webhook SSRF checks instead of the OS resolver (see WEBHOOK_DNS_RESOLVER). */
  webhookDnsResolver?: WebhookDnsResolver;
  /** Replaces the configured speech engines (a test synthesis engine, readiness true). */
  speechEngines?: SpeechEngines;
  /** Settings of the fresh database (see TestDatabaseSettings). */
  database?: TestDatabaseSettings;
}

/** Boots the whole app against a fresh PostgreSQL database (and optionally real Redis). */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(options.database);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    // Every test signs up from 127.0.0.1; the sign-up limit has its own tests.
    AUTH_REGISTER_MAX_PER_ADDRESS: '100000',
    // The dialer ticks only when a test says so (DialerScheduler.tick()): other tests' active
    // batches are data, not campaigns to dial.
    DIALER_TICK_MS: '0',
    ...(options.redis
      ? { REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: `sbtest-${randomBytes(4).toString('hex')}` }
      : {}),
    ...options.env,
  });
  const app = await createApp(config, {
    // A test that captures the logs gets every line, those of Nest's Logger (jobs, services)
    // included; the others get none.
    logger: options.logStream !== undefined,
    logStream: options.logStream,
    webhookDnsResolver: options.webhookDnsResolver,
    speechEngines: options.speechEngines,
  });
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    database,
    async close() {
      await app.close();
      await database.drop();
      if (config.redis.url) await deleteRedisKeys(config.redis.url, config.redis.prefix);
    },
  };
}

export type ListeningTestApp = TestApp & { baseUrl: string };

/**
 * The app listening on 127.0.0.1 at a free port, with PUBLIC_BASE_URL there (providers' fakes
 * call back to it), for clients that speak real HTTP: the typed client, curl, fetch.
 */
export async function startListeningTestApp(
  options: TestAppOptions = {},
): Promise<ListeningTestApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ ...options, env: { PUBLIC_BASE_URL: baseUrl, ...options.env } });
  await t.app.listen(port, '127.0.0.1');
  return { ...t, baseUrl };
}

/** Removes the keys this app wrote (its unique prefix), and nothing else. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
