import { trace } from '@opentelemetry/api';

/**
 * Switchboard's own spans (queue jobs, voice turns). A no-op until the OpenTelemetry SDK starts
 * (OTEL_EXPORTER_OTLP_ENDPOINT set, see start-tracing.ts), so recording them costs nothing then.
 */
export const tracer = trace.getTracer('switchboard');
