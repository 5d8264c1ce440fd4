import './tracing/register-worker';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { ConfigError, loadConfig } from './config';
import { installProcessPolicy } from './process-policy';
import { ShutdownOnSignals } from './shutdown';

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
  const logger = new Logger('Switchboard');
  // Before the start (migrations can take a while): a signal then stops the start cleanly.
  const shutdown = new ShutdownOnSignals(logger);
  installProcessPolicy({ logger, stop: (reason) => shutdown.fail(reason) });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(PinoLogger));
  shutdown.attach(app);
  if (!shutdown.received) logger.log(`Worker started (role: ${config.process.role})`);
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: say which, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
