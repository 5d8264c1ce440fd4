import './tracing/register-api';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config';
import type { createApp as CreateApp } from './create-app';
import { migratePostgres } from './database/postgres-migrations';
import { relaxHeapGrowth } from './heap-growth';
import { DRAIN_WIND_UP_SECONDS, ProcessDrain } from './lifecycle/process-drain';
import { installProcessPolicy } from './process-policy';
import { ShutdownOnSignals } from './shutdown';

async function main(): Promise<void> {
  relaxHeapGrowth();
  const config = loadConfig(process.env, 'all');
  const logger = new Logger('Switchboard');
  // Before the start (migrations can take a while): a signal then stops the start cleanly.
  const shutdown = new ShutdownOnSignals(logger);
  installProcessPolicy({ logger, stop: (reason) => shutdown.fail(reason) });
  // A new database's migrations run in PostgreSQL while the app's code loads (most of a second
  // that blocks this thread); opening the database then joins the same run.
  if (config.db.url) await migratePostgres(config.db.url).sent;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createApp } = require('./create-app') as { createApp: typeof CreateApp };
  const app = await createApp(config);
  if (!shutdown.received) await app.listen(config.http.port);
  shutdown.attach(app, {
    run: () => app.get(ProcessDrain).run(),
    // The grace period, then a closing line and the hang-up of the calls still live.
    boundMs: (config.process.drainGraceSeconds + DRAIN_WIND_UP_SECONDS) * 1_000,
  });
  if (shutdown.received) return;
  logger.log(`Listening on port ${config.http.port} (role: ${config.process.role})`);
  if (config.http.docsEnabled) logger.log(`API docs at http://localhost:${config.http.port}/docs`);
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: say which, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
