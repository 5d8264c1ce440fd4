import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { APP_CONFIG, type AppConfig } from '../config';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Secrets and personal data that must never be written, wherever they appear in a log object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.accessToken',
  '*.authToken',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.phoneNumber',
  '*.phone',
];

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Standard output, written asynchronously: a synchronous write per request line blocks the event
 * loop on every response. pino writes what is still buffered synchronously on 'exit' (it
 * registers that for every asynchronous destination), so process.exit() loses no line; a signal
 * reaches process.exit() through ShutdownOnSignals. One per process.
 */
export function stdoutDestination(): ReturnType<typeof pino.destination> {
  stdout ??= pino.destination({ dest: 1, sync: false });
  return stdout;
}

/** JSON logs with a request id per request (taken from x-request-id when sane, echoed back). */
@Module({})
export class LoggingModule {
  static forRoot(stream?: Writable): DynamicModule {
    return { module: LoggingModule, imports: [pinoLogger(stream)] };
  }
}

function pinoLogger(stream: Writable | undefined): DynamicModule {
  return LoggerModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => {
      const options = {
        level: config.log.level,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        genReqId: (req: IncomingMessage, res: ServerResponse) => {
          const incoming = req.headers['x-request-id'];
          const id =
            typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
              ? incoming
              : randomUUID();
          res.setHeader('x-request-id', id);
          return id;
        },
        customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
          error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
        serializers: {
          // The path only: query strings can carry phone numbers and other personal data.
          req: (req: {
            id: string;
            method: string;
            url: string;
            headers: Record<string, unknown>;
          }) => ({
            id: req.id,
            method: req.method,
            path: req.url.split('?')[0],
            headers: req.headers,
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          // Never a stack trace: pino-http logs every 5xx answer (a draining process's 503 to
          // each readiness probe) with an error it makes up, 'failed with status code 503'.
          err: (err: { type?: string }) => ({ type: err.type }),
        },
      };
      return { pinoHttp: [options, stream ?? stdoutDestination()] };
    },
  });
}
