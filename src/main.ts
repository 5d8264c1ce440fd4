import { Logger } from '@nestjs/common';
import { createApp } from './create-app';
import { ConfigError, loadConfig } from './config';
import { closeOnSignals } from './shutdown';

async function main(): Promise<void> {
  const config = loadConfig(process.env, 'all');
  const app = await createApp(config);
  await app.listen(config.http.port);
  const logger = new Logger('Switchboard');
  closeOnSignals(app, logger);
  logger.log(`Listening on port ${config.http.port} (role: ${config.process.role})`);
  if (config.http.docsEnabled) logger.log(`API docs at http://localhost:${config.http.port}/docs`);
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: say which, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
