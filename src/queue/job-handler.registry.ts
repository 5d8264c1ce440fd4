import { performance } from 'node:perf_hooks';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { SpanStatusCode } from '@opentelemetry/api';
import { SwitchboardMetrics } from '../metrics/switchboard-metrics';
import { tracer } from '../tracing/tracer';
import type { HandlesJob, JobContext } from './job-handler';
import { JobHandlerMarker } from './job-handler.decorator';
import { JobName, type JobPayloads } from './jobs';

/** At most one handler per name, typed for that name's payload. */
export type JobHandlerMap = { [N in JobName]?: HandlesJob<N> };

export interface FoundJobHandler {
  name: JobName;
  handler: HandlesJob;
  className: string;
}

/**
 * Maps every job name to its one handler. Built at bootstrap; a job name with no handler or
 * with two stops the start, so a job can never sit in the queue with nobody to run it.
 */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private handlers: JobHandlerMap = {};

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly metrics: SwitchboardMetrics,
  ) {}

  onModuleInit(): void {
    const found = this.discovery
      .getProviders({ metadataKey: JobHandlerMarker.KEY })
      .filter((wrapper) => wrapper.instance !== undefined && wrapper.instance !== null)
      .map((wrapper) => ({
        name: this.discovery.getMetadataByDecorator(JobHandlerMarker, wrapper) as JobName,
        handler: wrapper.instance as HandlesJob,
        className: String(wrapper.name),
      }));
    this.handlers = mapJobHandlers(found);
  }

  get<N extends JobName>(name: N): HandlesJob<N> {
    const handler = this.handlers[name];
    if (!handler) throw new Error(`No handler for job "${name}"`);
    return handler;
  }

  /**
   * Runs one attempt of a job with its handler, in a span of its own and timed for the
   * job-duration metric: both queue drivers run jobs through here.
   */
  run<N extends JobName>(name: N, payload: JobPayloads[N], context: JobContext): Promise<void> {
    const handler = this.get(name);
    return tracer.startActiveSpan(
      `job ${name}`,
      { attributes: { 'job.name': name, 'job.id': context.jobId, 'job.attempt': context.attempt } },
      async (span) => {
        const started = performance.now();
        try {
          await handler.handle(payload, context);
          this.metrics.observeJob(name, 'completed', (performance.now() - started) / 1000);
        } catch (error) {
          this.metrics.observeJob(name, 'failed', (performance.now() - started) / 1000);
          // The error class only: a message may quote a payload, and a stack has no place there.
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: error instanceof Error ? error.name : 'error',
          });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }

  has(name: string): name is JobName {
    return Object.hasOwn(this.handlers, name);
  }
}

/** Exactly one handler per job name, or an error naming every problem. */
export function mapJobHandlers(found: FoundJobHandler[]): JobHandlerMap {
  const problems: string[] = [];
  const handlers: JobHandlerMap = {};
  for (const name of Object.values(JobName)) {
    const matching = found.filter((entry) => entry.name === name);
    if (matching.length === 0) problems.push(`job "${name}" has no handler`);
    if (matching.length > 1) {
      const classes = matching.map((entry) => entry.className).join(', ');
      problems.push(`job "${name}" has ${matching.length} handlers (${classes})`);
    }
    // The registry only hands a handler out for the name it was found under.
    if (matching.length === 1) Object.assign(handlers, { [name]: matching[0].handler });
  }
  for (const entry of found) {
    if (!(Object.values(JobName) as string[]).includes(entry.name)) {
      problems.push(`${entry.className} handles unknown job "${String(entry.name)}"`);
    }
  }
  if (problems.length > 0)
    throw new Error(`Job handlers are misconfigured: ${problems.join('; ')}`);
  return handlers;
}
