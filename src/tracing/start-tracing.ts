import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans of HTTP (in and out), pg
 * and ioredis, plus Switchboard's own (each queue job, each voice turn), exported over OTLP/HTTP.
 * The exporter reads the other OTEL_* variables itself (headers, service name, sampler). Must
 * run before pg, ioredis and http are loaded: main.ts and worker.ts import it first, and the
 * bundle keeps pg and ioredis external so the instrumentations can patch them.
 *
 * The SDK, exporter and instrumentations are required here, not imported at the top: loading
 * them costs every start ~0.2 s of CPU, and most deployments trace nothing.
 */
export function startTracing(env: NodeJS.ProcessEnv, serviceName: string): boolean {
  if (sdk || !env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return false;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would drown the traces that explain a slow call.
        ignoreIncomingRequestHook: (request) =>
          request.url === '/metrics' || (request.url ?? '').startsWith('/health/'),
      }),
      // Statement text only, never the values bound to it (they may be personal data).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  return true;
}

/** Sends the spans still buffered; called once the application has closed. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
