import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config';
import { closeOnSignals } from './shutdown';

/** Runs the job handlers against Redis; the HTTP API runs in main.ts (PROCESS_ROLE=api). */
async function main(): Promise<void> {
  const config = loadConfig(process.env, 'worker');
  if (!config.redis.url) {
    throw new ConfigError(
      'REDIS_URL',
      'is required by the worker; without it (embedded mode) jobs run inside the API process',
    );
  }
  if (!config.db.url) {
    throw new ConfigError(
      'DATABASE_URL',
      'is required by the worker: the embedded database serves one process',
    );
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    bufferLogs: true,
    abortOnError: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  closeOnSignals(app, logger);
  logger.log(`Worker started (role: ${config.process.role})`, 'Switchboard');
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: say which, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
