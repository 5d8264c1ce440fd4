import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processFaults, type ProcessFaults } from '../process-policy';
import type { EngineState } from '../common/failover/engine-circuit';
import type { EngineEvents, EngineRef } from '../common/failover/engine-events';

/** Latency buckets in seconds, from a fast query to a slow provider. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Voice turns: the targets sit between 50 ms and a second. */
const TURN_BUCKETS = [0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5];

let processRegistry: Registry | undefined;

const ENGINE_STATES: readonly EngineState[] = ['ok', 'failing', 'open'];

/**
 * Node's own metrics (memory, GC, event-loop lag) are per process: collected once into one
 * registry, however many applications a process (a test run) boots.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** A count of the process policy (src/process-policy.ts): the whole process's, read when scraped. */
function faultCounter(
  registry: Registry,
  name: string,
  help: string,
  fault: keyof ProcessFaults,
): Counter {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(processFaults()[fault]);
    },
  });
}

export type JobOutcome = 'completed' | 'failed';
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed';

/**
 * Every metric Switchboard exports, on a registry of its own (not prom-client's global one), so
 * each application instance counts only its own work. Gauges that describe shared state (queue
 * depth, live calls) are set by MetricsSampler just before a scrape.
 */
@Injectable()
export class SwitchboardMetrics {
  private readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly queueJobs = new Gauge({
    name: 'switchboard_queue_jobs',
    help: 'Jobs per queue and state (waiting, active, delayed, failed) when scraped',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'switchboard_queue_job_duration_seconds',
    help: 'Time a job handler ran, by job name and outcome (each attempt counts)',
    labelNames: ['job', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'switchboard_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retrying (will be retried) or failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: 'switchboard_webhook_delivery_duration_seconds',
    help: 'Time from sending a webhook delivery to its answer (or error), by outcome',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly callsPlaced = new Counter({
    name: 'switchboard_calls_placed_total',
    help: 'Calls the provider accepted, by telephony integration',
    labelNames: ['integration'] as const,
    registers: [this.registry],
  });

  readonly callsLive = new Gauge({
    name: 'switchboard_calls_live',
    help: 'Calls not yet ended, by status (all organizations) when scraped',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly voiceTurnLatency = new Histogram({
    name: 'switchboard_voice_turn_latency_seconds',
    help: "Time from the caller's end of speech to the agent's first audio frame",
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });

  readonly voiceBargeIns = new Counter({
    name: 'switchboard_voice_barge_ins_total',
    help: 'Times a caller interrupted the agent and the agent stopped speaking',
    registers: [this.registry],
  });

  readonly voiceSessionEndings = new Counter({
    name: 'switchboard_voice_session_endings_total',
    help:
      'Calls the voice session ended itself, by why (agent, max_duration, service_failure, drain, ' +
      'voicemail, system) and, for service_failure, the dependency that failed (else none)',
    labelNames: ['ended_by', 'dependency'] as const,
    registers: [this.registry],
  });

  readonly unhandledRejections = faultCounter(
    this.registry,
    'switchboard_unhandled_rejections_total',
    'Rejected promises nobody handled: logged and survived (this process, since it started)',
    'unhandledRejections',
  );

  readonly uncaughtExceptions = faultCounter(
    this.registry,
    'switchboard_uncaught_exceptions_total',
    'Exceptions nobody caught: each stops the process (drained, exit 1)',
    'uncaughtExceptions',
  );

  readonly engineState = new Gauge({
    name: 'switchboard_engine_state',
    help: 'Each speech and chat engine of live calls: 1 for its state (ok, failing, open: skipped until probed), 0 for the others',
    labelNames: ['dependency', 'role', 'engine', 'state'] as const,
    registers: [this.registry],
  });

  readonly engineFailures = new Counter({
    name: 'switchboard_engine_failures_total',
    help: 'Tries of a speech or chat engine that failed (an error, a timeout, a cut stream)',
    labelNames: ['dependency', 'role', 'engine'] as const,
    registers: [this.registry],
  });

  readonly engineRetries = new Counter({
    name: 'switchboard_engine_retries_total',
    help: 'Failed tries of a speech or chat engine tried again on the same engine',
    labelNames: ['dependency', 'role', 'engine'] as const,
    registers: [this.registry],
  });

  readonly engineFallbacks = new Counter({
    name: 'switchboard_engine_fallbacks_total',
    help: 'Turns, sentences or replies an engine failed or skipped (circuit open) that its fallback took',
    labelNames: ['dependency', 'role', 'engine'] as const,
    registers: [this.registry],
  });

  readonly engineExhausted = new Counter({
    name: 'switchboard_engine_exhausted_total',
    help: 'Turns, sentences or replies every engine of the dependency failed (the call is told why)',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });

  /** What the speech and chat failover reports, as the engine_* series. */
  readonly engineEvents: EngineEvents = {
    state: (ref: EngineRef, state: EngineState) => {
      for (const each of ENGINE_STATES) {
        this.engineState.set({ ...ref, state: each }, each === state ? 1 : 0);
      }
    },
    failure: (ref) => this.engineFailures.inc({ ...ref }),
    retry: (ref) => this.engineRetries.inc({ ...ref }),
    fallback: (ref) => this.engineFallbacks.inc({ ...ref }),
    exhausted: (dependency) => this.engineExhausted.inc({ dependency }),
  };

  observeJob(job: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ job, outcome }, seconds);
  }

  observeWebhookAttempt(outcome: DeliveryOutcome, seconds: number): void {
    this.webhookAttempts.inc({ outcome });
    this.webhookAttemptDuration.observe({ outcome }, seconds);
  }

  /** The exposition text of this application's metrics and the process's. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}
