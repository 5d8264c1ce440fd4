import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../src/database';
import { JobHandler, JobName, type HandlesJob } from '../../src/queue';
import type { JobContext } from '../../src/queue/job-handler';
import type { JobPayloads } from '../../src/queue/jobs';
import { stubJobHandlers } from '../support/job-handlers';
import { startQueueHarness, type QueueDriver, type QueueHarness } from '../support/queue-harness';
import { waitFor } from '../support/wait-for';

type Payload = JobPayloads[JobName.ApiKeyUsed];

interface Run extends JobContext {
  /** The payload's apiKeyId: what the job does ('ok', 'hold', 'fail-once', 'fail-always'). */
  script: string;
  /** Whether the job ran inside a Database.transaction() (it never should). */
  inTransaction: boolean;
  /** Whether the probe row named by organizationId was visible to the job. */
  rowVisible: boolean;
}

/** Test-only handler: records what each run saw; `apiKeyId` scripts it. */
@Injectable()
@JobHandler(JobName.ApiKeyUsed)
class ProbeHandler implements HandlesJob<JobName.ApiKeyUsed> {
  readonly runs: Run[] = [];
  private releases: Array<() => void> = [];

  constructor(private readonly database: Database) {}

  async handle({ organizationId, apiKeyId }: Payload, context: JobContext): Promise<void> {
    const found = rowsOf<{ n: number }>(
      await this.database.db.execute(
        sql`SELECT count(*)::int AS n FROM queue_probe WHERE id = ${organizationId}`,
      ),
    );
    this.runs.push({
      ...context,
      script: apiKeyId,
      inTransaction: this.database.inTransaction,
      rowVisible: found[0].n === 1,
    });
    if (apiKeyId === 'hold') await new Promise<void>((resolve) => this.releases.push(resolve));
    if (apiKeyId === 'fail-always') throw new Error('always fails');
    if (apiKeyId === 'fail-once' && context.attempt === 1) throw new Error('fails once');
  }

  releaseAll(): void {
    for (const release of this.releases.splice(0)) release();
  }

  runsOf(jobId: string): Run[] {
    return this.runs.filter((run) => run.jobId === jobId);
  }
}

describe.each<QueueDriver>(['in-process', 'bullmq'])('queue, %s driver', (driver) => {
  let harness: QueueHarness;
  let handler: ProbeHandler;
  let database: Database;
  let probes = 0;

  const job = (script: string, rowId = 'none'): Payload => ({
    organizationId: rowId,
    apiKeyId: script,
    usedAt: new Date().toISOString(),
  });
  /** A job queued after the others, outside any transaction: once it ran, they had their turn. */
  const runMarker = async (): Promise<void> => {
    const id = `marker-${(probes += 1)}`;
    await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok'), { jobId: id });
    await waitFor(() => handler.runsOf(id).length === 1, { what: `${id} to run` });
  };

  /**
   * Queues an 'ok' job with this id until the id has run `runs` times: the driver frees an id
   * a moment after its job finished, so the first tries may still be deduped.
   */
  const enqueueUntilRun = (jobId: string, runs: number) =>
    waitFor(
      async () => {
        await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok'), { jobId });
        return handler.runsOf(jobId).length >= runs;
      },
      { what: `${jobId} to run ${runs} times` },
    );

  beforeAll(async () => {
    harness = await startQueueHarness(
      driver,
      [ProbeHandler, ...stubJobHandlers(JobName.ApiKeyUsed)],
      { attempts: 2, backoffDelayMs: 100 },
    );
    handler = harness.moduleRef.get(ProbeHandler);
    database = harness.database;
    await database.db.execute(sql`CREATE TABLE queue_probe (id text PRIMARY KEY)`);
  });
  afterAll(async () => {
    handler?.releaseAll();
    await harness?.close();
  });

  it('has the @nestjs/bullmq queues on Redis only (embedded mode loads no BullModule)', () => {
    const registered = (lane: string) => {
      try {
        harness.moduleRef.get(getQueueToken(lane));
        return true;
      } catch {
        return false;
      }
    };
    expect([registered('jobs'), registered('webhook-deliveries')]).toEqual([
      driver === 'bullmq',
      driver === 'bullmq',
    ]);
  });

  describe('jobs only after commit', () => {
    it('never runs a job queued in a transaction that rolled back', async () => {
      await expect(
        database.transaction(async () => {
          await database.db.execute(sql`INSERT INTO queue_probe VALUES ('rolled-back')`);
          await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok', 'rolled-back'), {
            jobId: 'in-rollback',
          });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await runMarker();
      expect(handler.runsOf('in-rollback')).toEqual([]);
      if (driver === 'bullmq') expect(await harness.storedJob('in-rollback')).toBeUndefined();
    });

    it('runs a job queued in a committed transaction, outside it, seeing the committed row', async () => {
      await database.transaction(async () => {
        await database.db.execute(sql`INSERT INTO queue_probe VALUES ('committed')`);
        await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok', 'committed'), {
          jobId: 'in-commit',
        });
        // A long transaction (an import): a job sent at enqueue would run before the commit.
        await database.db.execute(sql`SELECT pg_sleep(0.3)`);
      });
      await waitFor(() => handler.runsOf('in-commit').length === 1, { what: 'the job to run' });
      expect(handler.runsOf('in-commit')).toEqual([
        expect.objectContaining({ attempt: 1, inTransaction: false, rowVisible: true }),
      ]);
    });

    it('sends the jobs of a released savepoint with the outer commit, not before', async () => {
      await database.transaction(async () => {
        await database.transaction(async () => {
          await database.db.execute(sql`INSERT INTO queue_probe VALUES ('savepoint')`);
          await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok', 'savepoint'), {
            jobId: 'in-savepoint',
          });
        });
        await database.db.execute(sql`SELECT pg_sleep(0.3)`);
      });
      await waitFor(() => handler.runsOf('in-savepoint').length === 1, { what: 'the job' });
      expect(handler.runsOf('in-savepoint')[0]).toMatchObject({ rowVisible: true });
    });
  });

  describe('job id dedupe: while waiting, delayed, backing off or running, not after', () => {
    it('drops a job whose id waits (delayed) or runs, and runs it again once finished', async () => {
      await harness.jobs.enqueue(JobName.ApiKeyUsed, job('hold'), { jobId: 'd1', delayMs: 150 });
      await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok'), { jobId: 'd1' });
      await waitFor(() => handler.runsOf('d1').length === 1, { what: 'the delayed job to run' });
      await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok'), { jobId: 'd1' });
      handler.releaseAll();
      await runMarker();
      expect(handler.runsOf('d1').map((run) => run.script)).toEqual(['hold']);

      await enqueueUntilRun('d1', 2);
      expect(
        handler
          .runsOf('d1')
          .map((run) => run.script)
          .slice(0, 2),
      ).toEqual(['hold', 'ok']);
    });

    it('drops a job whose id backs off between attempts, and runs it again once given up', async () => {
      await harness.jobs.enqueue(JobName.ApiKeyUsed, job('fail-always'), { jobId: 'd2' });
      await waitFor(() => handler.runsOf('d2').length === 1, { what: 'the first attempt' });
      await harness.jobs.enqueue(JobName.ApiKeyUsed, job('ok'), { jobId: 'd2' });
      await waitFor(() => handler.runsOf('d2').length === 2, { what: 'the retry' });
      // Given up after 2 attempts: the id is free again.
      await enqueueUntilRun('d2', 3);
      expect(
        handler
          .runsOf('d2')
          .map((run) => [run.script, run.attempt])
          .slice(0, 3),
      ).toEqual([
        ['fail-always', 1],
        ['fail-always', 2],
        ['ok', 1],
      ]);
    });
  });
});
