import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { JobHandler, JobName, JobQueue, type HandlesJob } from '../../src/queue';
import { JOBS_QUEUE_NAME } from '../../src/queue/bullmq-job-queue';
import { stubJobHandlers } from '../support/job-handlers';
import type { JobContext } from '../../src/queue/job-handler';
import { DEFAULT_JOB_RETRY_POLICY, type JobPayloads } from '../../src/queue/jobs';
import { createApiKey, registerOrganization } from '../support/factories';
import { freePort } from '../support/free-port';
import { startQueueHarness, type QueueHarness } from '../support/queue-harness';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

describe('queue (BullMQ on real Redis)', () => {
  describe('recording API key use', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ redis: true });
    });
    afterAll(async () => {
      await t.close();
    });

    it('sets lastUsedAt through a job after the key authenticates a request', async () => {
      const admin = await registerOrganization(t.http);
      const { key, id } = await createApiKey(t.http, admin.token);
      await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
      const lastUsedAt = await waitFor(
        async () => {
          const list = await t.http
            .get('/api/api-keys')
            .set('Authorization', `Bearer ${admin.token}`)
            .expect(200);
          const row = (list.body.data as Array<{ _id: string; lastUsedAt: string | null }>).find(
            (apiKey) => apiKey._id === id,
          );
          return row?.lastUsedAt ?? undefined;
        },
        { what: 'lastUsedAt to be set' },
      );
      expect(Date.parse(lastUsedAt)).toBeLessThanOrEqual(Date.now());
    });
  });

  describe('retries, dedupe and shutdown', () => {
    type Payload = JobPayloads[JobName.ApiKeyUsed];

    /** Test-only handler: `apiKeyId` says how often to fail ('fail-2', 'fail-always', 'hold'). */
    @JobHandler(JobName.ApiKeyUsed)
    class ScriptedHandler implements HandlesJob<JobName.ApiKeyUsed> {
      readonly runs: Array<JobContext & { at: number; apiKeyId: string }> = [];
      release: () => void = () => {};

      async handle(payload: Payload, context: JobContext): Promise<void> {
        this.runs.push({ ...context, at: performance.now(), apiKeyId: payload.apiKeyId });
        if (payload.apiKeyId === 'hold') {
          await new Promise<void>((resolve) => (this.release = resolve));
        }
        if (payload.apiKeyId === 'fail-always') throw new Error('always fails');
        if (payload.apiKeyId === 'fail-2' && context.attempt <= 2) throw new Error('flaky');
      }

      runsOf(jobId: string) {
        return this.runs.filter((run) => run.jobId === jobId);
      }
    }

    const BACKOFF_MS = 50;
    let harness: QueueHarness;
    let jobs: JobQueue;
    let handler: ScriptedHandler;

    const payload = (apiKeyId: string): Payload => ({
      organizationId: 'org',
      apiKeyId,
      usedAt: new Date().toISOString(),
    });

    beforeAll(async () => {
      harness = await startQueueHarness(
        'bullmq',
        [ScriptedHandler, ...stubJobHandlers(JobName.ApiKeyUsed)],
        { attempts: 3, backoffDelayMs: BACKOFF_MS },
      );
      jobs = harness.jobs;
      handler = harness.moduleRef.get(ScriptedHandler);
    });

    afterAll(async () => {
      await harness?.close();
    });

    const stateOf = async (jobId: string) => (await harness.storedJob(jobId))?.getState();

    it('retries a failing job with exponential backoff until it succeeds', async () => {
      await jobs.enqueue(JobName.ApiKeyUsed, payload('fail-2'), { jobId: 'flaky-job' });
      await waitFor(async () => (await stateOf('flaky-job')) === 'completed', {
        what: 'the flaky job to complete',
      });
      const runs = handler.runsOf('flaky-job');
      expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
      expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(BACKOFF_MS - 5);
      expect(runs[2].at - runs[1].at).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 5);
      const stored = await harness.storedJob('flaky-job');
      expect(stored?.attemptsMade).toBe(3);
      expect(stored?.data).toEqual(expect.objectContaining({ apiKeyId: 'fail-2' }));
    });

    it('gives up after the configured attempts and keeps the failed job', async () => {
      await jobs.enqueue(JobName.ApiKeyUsed, payload('fail-always'), { jobId: 'doomed-job' });
      await waitFor(async () => (await stateOf('doomed-job')) === 'failed', {
        what: 'the job to fail for good',
      });
      expect(handler.runsOf('doomed-job').map((run) => run.attempt)).toEqual([1, 2, 3]);
      expect((await harness.storedJob('doomed-job'))?.failedReason).toBe('always fails');
    });

    it('sends to the queues @nestjs/bullmq registered, with the retry policy as job defaults', async () => {
      const queue = harness.moduleRef.get<Queue>(getQueueToken(JOBS_QUEUE_NAME));
      expect(queue.defaultJobOptions).toMatchObject({
        attempts: 3,
        backoff: { type: 'exponential', delay: BACKOFF_MS },
        removeOnComplete: { age: 24 * 3600, count: 1_000 },
      });
      const deliveries = harness.moduleRef.get<Queue>(getQueueToken('webhook-deliveries'));
      expect(deliveries.qualifiedName).toBe(`${harness.config.redis.prefix}:webhook-deliveries`);
      // 'waiting' is emitted by the Queue instance that added the job, not read back from Redis.
      const added: Job[] = [];
      queue.on('waiting', (job: Job) => added.push(job));
      await jobs.enqueue(JobName.ApiKeyUsed, payload('ok'), { jobId: 'seen-job' });
      expect(added.map((job) => [job.name, job.deduplicationId])).toEqual([
        [JobName.ApiKeyUsed, 'seen-job'],
      ]);
      await waitFor(async () => (await stateOf('seen-job')) === 'completed', {
        what: 'the job to complete',
      });
    });

    it('lets an active job finish when the app shuts down', async () => {
      await jobs.enqueue(JobName.ApiKeyUsed, payload('hold'), { jobId: 'held-job' });
      await waitFor(() => handler.runsOf('held-job').length === 1, { what: 'the job to start' });
      const closing = harness.stop();
      handler.release();
      await closing;
      expect(await stateOf('held-job')).toBe('completed');
      // @nestjs/bullmq closed the queue it registered.
      const queue = harness.moduleRef.get<Queue>(getQueueToken(JOBS_QUEUE_NAME));
      await expect(queue.add('after-shutdown', {})).rejects.toThrow(/closed/i);
    });
  });

  describe('while Redis is unreachable', () => {
    it('logs each queue connection error, from the first one, through the logger without the password', async () => {
      const password = 'canary-redis-password-4411';
      const warnings: string[] = [];
      // BullMQ prints to the console an error its queue has no 'error' listener for (yet).
      const consoleErrors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const harness = await startQueueHarness(
        'bullmq',
        stubJobHandlers(),
        DEFAULT_JOB_RETRY_POLICY,
        {
          env: {
            REDIS_URL: `redis://:${password}@127.0.0.1:${await freePort()}`,
            // No worker: closing a worker that never reached Redis waits for it.
            PROCESS_ROLE: 'api',
          },
          logger: {
            log() {},
            warn: (message: unknown) => warnings.push(String(message)),
            error: (message: unknown) => warnings.push(String(message)),
          },
        },
      );
      try {
        await waitFor(
          () =>
            warnings.filter((line) => line.startsWith('Queue: connect ECONNREFUSED')).length >= 2,
          { what: 'a connection error logged for each queue' },
        );
        expect(consoleErrors).not.toHaveBeenCalled();
        expect(warnings.join('\n')).not.toContain(password);
      } finally {
        consoleErrors.mockRestore();
        // ioredis lets a socket that never connected go after 2 s: Jest may note it did not exit.
        await harness.close();
      }
    }, 30_000);
  });
});
