import './tracing/register-api';
import { Logger } from '@nestjs/common';
import { createApp } from './create-app';
import { ConfigError, loadConfig } from './config';
import { ShutdownOnSignals } from './shutdown';

async function main(): Promise<void> {
  const config = loadConfig(process.env, 'all');
  const logger = new Logger('Switchboard');
  // Before the start (migrations can take a while): a signal then stops the start cleanly.
  const shutdown = new ShutdownOnSignals(logger);
  const app = await createApp(config);
  if (!shutdown.received) await app.listen(config.http.port);
  shutdown.attach(app);
  if (shutdown.received) return;
  logger.log(`Listening on port ${config.http.port} (role: ${config.process.role})`);
  if (config.http.docsEnabled) logger.log(`API docs at http://localhost:${config.http.port}/docs`);
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: say which, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
