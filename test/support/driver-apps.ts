import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { startTestApp } from './test-app';

/** The app on one database driver, for tests that run alike on PostgreSQL and PGlite. */
export interface DriverApp {
  app: NestExpressApplication;
  http: TestAgent;
  close(): Promise<void>;
}

/** The app on a fresh PostgreSQL database (startTestApp). */
export async function startPostgresApp(env: Record<string, string> = {}): Promise<DriverApp> {
  const t = await startTestApp({ env });
  return { app: t.app, http: t.http, close: () => t.close() };
}

/** The app on embedded PGlite in a temp data dir, removed on close. */
export async function startPgliteApp(): Promise<DriverApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-pglite-app-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const app = await createApp(config, { logger: false });
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both drivers, named, for `describe.each`. */
export const DRIVER_APPS: Array<[driver: string, start: () => Promise<DriverApp>]> = [
  ['PostgreSQL', () => startPostgresApp()],
  ['PGlite', startPgliteApp],
];
