import {
  Inject,
  Injectable,
  type INestApplicationContext,
  type OnModuleDestroy,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { AppModule as AppModuleClass } from '../app.module';
import { type AppConfig, loadConfig } from '../config';
import type { Env } from '../config/env-readers';
import { JobQueue } from '../queue';
import { InProcessJobQueue } from '../queue/in-process-job-queue';

/** How long the CLI waits, in embedded queue mode, for the jobs a command queued. */
const IN_PROCESS_JOBS_BOUND_MS = 30_000;

/** The environment the CLI was started with (the entry point reads it; config loads it). */
export const CLI_ENV = Symbol('CLI_ENV');

type Token<T> = abstract new (...args: never[]) => T;

/**
 * The Switchboard application context the commands call, booted on first use: `--help` and
 * usage errors answer at once, without opening the database. No HTTP server; the process role
 * is `api`, so the CLI runs no dialer, sweeper or BullMQ worker of its own: with REDIS_URL the
 * workers take its jobs; with the in-process queue they run here, and the CLI waits for them
 * (bounded) before it exits.
 * Logs go to stderr (level LOG_LEVEL, `warn` unless set), so stdout carries the output only.
 */
@Injectable()
export class SwitchboardContext implements OnModuleDestroy {
  private context: Promise<INestApplicationContext> | undefined;

  constructor(@Inject(CLI_ENV) private readonly env: Env) {}

  /** A provider of the application (a service: the rules live there). */
  async get<T>(token: Token<T>): Promise<T> {
    this.context ??= this.boot();
    return (await this.context).get(token, { strict: false });
  }

  async onModuleDestroy(): Promise<void> {
    const context = await this.context?.catch(() => undefined);
    if (!context) return;
    const queue = context.get(JobQueue, { strict: false });
    // Embedded queue: what the command queued (a replayed delivery, a search index) runs here
    // or not at all; PostgreSQL keeps what a bound cuts short due for the server's sweeper.
    if (queue instanceof InProcessJobQueue && !(await queue.idle(IN_PROCESS_JOBS_BOUND_MS))) {
      process.stderr.write(
        `warning: jobs this command queued did not finish within ${IN_PROCESS_JOBS_BOUND_MS / 1000} s and are dropped\n`,
      );
    }
    await context.close();
  }

  private async boot(): Promise<INestApplicationContext> {
    const loaded = loadConfig({ LOG_LEVEL: 'warn', ...this.env }, 'all');
    // A one-shot command takes no calls and serves no scrapes: no voice runtime (nor its speech
    // engine checks) and no METRICS_PORT listener, which would collide with the server's.
    const config: AppConfig = {
      ...loaded,
      process: { ...loaded.process, role: 'api' },
      metrics: { ...loaded.metrics, port: undefined },
      voice: { runtime: false },
    };
    // Required here, not at the top: `--help` and usage errors skip initializing every module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AppModule } = require('../app.module') as { AppModule: typeof AppModuleClass };
    const context = await NestFactory.createApplicationContext(
      AppModule.forRoot(config, { logStream: process.stderr }),
      { bufferLogs: true, abortOnError: false },
    );
    context.useLogger(context.get(PinoLogger));
    return context;
  }
}
