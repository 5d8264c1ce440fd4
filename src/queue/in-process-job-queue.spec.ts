import { AsyncLocalStorage } from 'node:async_hooks';
import { DiscoveryModule } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { stubJobHandlers } from '../../test/support/job-handlers';
import { waitFor } from '../../test/support/wait-for';
import { Database, DB } from '../database/database.service';
import { InProcessJobQueue } from './in-process-job-queue';
import type { JobContext, HandlesJob } from './job-handler';
import { JobHandler } from './job-handler.decorator';
import { SwitchboardMetrics } from '../metrics/switchboard-metrics';
import { JobHandlerRegistry } from './job-handler.registry';
import {
  JOB_LANES,
  JOB_RETRY_POLICY,
  JobName,
  type JobPayloads,
  type JobRetryPolicy,
} from './jobs';

type Payload = JobPayloads[JobName.ApiKeyUsed];

/** Fails its first `failures` runs, then succeeds; records every run. */
@JobHandler(JobName.ApiKeyUsed)
class FlakyHandler implements HandlesJob<JobName.ApiKeyUsed> {
  failures = 0;
  gate: Promise<void> = Promise.resolve();
  readonly runs: Array<JobContext & { at: number; payload: Payload; store: unknown }> = [];
  running = 0;
  mostAtOnce = 0;

  async handle(payload: Payload, context: JobContext): Promise<void> {
    this.runs.push({ ...context, at: performance.now(), payload, store: callerStore.getStore() });
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await this.gate.finally(() => (this.running -= 1));
    if (this.runs.length <= this.failures) throw new Error(`failure ${this.runs.length}`);
  }
}

/** Stands for any AsyncLocalStorage a caller runs in (a request's logger, a transaction). */
const callerStore = new AsyncLocalStorage<string>();

const POLICY: JobRetryPolicy = { attempts: 3, backoffDelayMs: 20 };
const payload = (apiKeyId = 'k1'): Payload => ({
  organizationId: 'o1',
  apiKeyId,
  usedAt: '2026-01-01T00:00:00.000Z',
});

describe('InProcessJobQueue', () => {
  let moduleRef: TestingModule;
  let queue: InProcessJobQueue;
  let handler: FlakyHandler;

  beforeEach(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [
        SwitchboardMetrics,
        JobHandlerRegistry,
        InProcessJobQueue,
        // Never in a transaction here: jobs are sent at once (test/integration/queue.test.ts).
        Database,
        { provide: DB, useValue: {} },
        FlakyHandler,
        ...stubJobHandlers(JobName.ApiKeyUsed),
        { provide: JOB_RETRY_POLICY, useValue: POLICY },
      ],
    })
      .setLogger({ log() {}, error() {}, warn() {} })
      .compile();
    await moduleRef.init();
    queue = moduleRef.get(InProcessJobQueue);
    handler = moduleRef.get(FlakyHandler);
  });

  afterEach(async () => {
    await moduleRef.close();
  });

  it('runs a job with its payload on the first attempt', async () => {
    await queue.enqueue(JobName.ApiKeyUsed, payload(), { jobId: 'job-a' });
    await waitFor(() => queue.size === 0, { what: 'the job to finish' });
    expect(handler.runs).toEqual([
      expect.objectContaining({ attempt: 1, jobId: 'job-a', payload: payload() }),
    ]);
  });

  it('retries a failing job with exponential backoff until it succeeds', async () => {
    handler.failures = 2;
    await queue.enqueue(JobName.ApiKeyUsed, payload());
    await waitFor(() => queue.size === 0, { what: 'the job to finish' });
    expect(handler.runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(new Set(handler.runs.map((run) => run.jobId)).size).toBe(1);
    // Timers may fire a little early; allow 2 ms of slack.
    expect(handler.runs[1].at - handler.runs[0].at).toBeGreaterThanOrEqual(20 - 2);
    expect(handler.runs[2].at - handler.runs[1].at).toBeGreaterThanOrEqual(40 - 2);
  });

  it('gives up after the configured attempts', async () => {
    handler.failures = Number.POSITIVE_INFINITY;
    await queue.enqueue(JobName.ApiKeyUsed, payload());
    await waitFor(() => queue.size === 0, { what: 'the job to be given up' });
    expect(handler.runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
  });

  it('dedupes by job id while a job with that id is pending, not after', async () => {
    let release!: () => void;
    handler.gate = new Promise((resolve) => (release = resolve));
    await queue.enqueue(JobName.ApiKeyUsed, payload('first'), { jobId: 'same' });
    await waitFor(() => handler.runs.length === 1, { what: 'the job to start' });
    await queue.enqueue(JobName.ApiKeyUsed, payload('second'), { jobId: 'same' });
    await queue.enqueue(JobName.ApiKeyUsed, payload('other'), { jobId: 'other' });
    release();
    await waitFor(() => queue.size === 0, { what: 'the jobs to finish' });
    expect(handler.runs.map((run) => run.payload.apiKeyId)).toEqual(['first', 'other']);

    await queue.enqueue(JobName.ApiKeyUsed, payload('again'), { jobId: 'same' });
    await waitFor(() => queue.size === 0, { what: 'the job to finish' });
    expect(handler.runs.map((run) => run.payload.apiKeyId)).toEqual(['first', 'other', 'again']);
  });

  it("runs at most its lane's concurrency of jobs at once; the others wait their turn", async () => {
    let release!: () => void;
    handler.gate = new Promise((resolve) => (release = resolve));
    const limit = JOB_LANES.jobs.concurrency;
    for (let i = 0; i < limit * 3; i += 1) {
      await queue.enqueue(JobName.ApiKeyUsed, payload(`k${i}`));
    }
    await waitFor(() => handler.runs.length >= limit, { what: 'a lane full of jobs' });
    release();
    await waitFor(() => queue.size === 0, { what: 'every job to finish' });
    expect(handler.runs).toHaveLength(limit * 3);
    expect(handler.mostAtOnce).toBe(limit);
  });

  it("runs jobs outside the caller's async context", async () => {
    await callerStore.run('request', () =>
      queue.enqueue(JobName.ApiKeyUsed, payload(), { jobId: 'from-request' }),
    );
    await waitFor(() => queue.size === 0, { what: 'the job to finish' });
    expect(handler.runs).toEqual([expect.objectContaining({ jobId: 'from-request' })]);
    expect(handler.runs[0].store).toBeUndefined();
  });

  it('refuses job ids that BullMQ would refuse', async () => {
    await expect(queue.enqueue(JobName.ApiKeyUsed, payload(), { jobId: 'a:b' })).rejects.toThrow(
      'Invalid job id',
    );
    await expect(queue.enqueue(JobName.ApiKeyUsed, payload(), { jobId: '42' })).rejects.toThrow(
      'Invalid job id',
    );
  });

  it('idle() resolves once every job, retries included, is done', async () => {
    handler.failures = 1;
    expect(await queue.idle(1_000)).toBe(true);
    await queue.enqueue(JobName.ApiKeyUsed, payload('a'));
    await queue.enqueue(JobName.ApiKeyUsed, payload('b'), { delayMs: 30 });
    expect(await queue.idle(5_000)).toBe(true);
    expect(queue.size).toBe(0);
    // The first run failed and was retried before idle() answered.
    expect(handler.runs.map((run) => run.payload.apiKeyId).sort()).toEqual(['a', 'a', 'b']);
  });

  it('idle() answers false when its bound passes first', async () => {
    await queue.enqueue(JobName.ApiKeyUsed, payload(), { delayMs: 60_000 });
    expect(await queue.idle(20)).toBe(false);
    expect(queue.size).toBe(1);
  });

  it('at shutdown waits for running jobs, drops waiting ones and takes no more', async () => {
    let release!: () => void;
    handler.gate = new Promise((resolve) => (release = resolve));
    await queue.enqueue(JobName.ApiKeyUsed, payload('running'));
    await waitFor(() => handler.runs.length === 1, { what: 'the job to start' });
    await queue.enqueue(JobName.ApiKeyUsed, payload('waiting'), { delayMs: 60_000 });

    let finished = false;
    const shutdown = queue.beforeApplicationShutdown().then(() => (finished = true));
    await expect(queue.enqueue(JobName.ApiKeyUsed, payload('late'))).rejects.toThrow(
      'shutting down',
    );
    expect(finished).toBe(false);
    release();
    await shutdown;
    expect(handler.runs.map((run) => run.payload.apiKeyId)).toEqual(['running']);
  });
});
