import { Test } from '@nestjs/testing';
import { DiscoveryModule } from '@nestjs/core';
import type { HandlesJob } from './job-handler';
import { JobHandler } from './job-handler.decorator';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobName } from './jobs';
import { SwitchboardMetrics } from '../metrics/switchboard-metrics';
import { stubJobHandlers } from '../../test/support/job-handlers';

@JobHandler(JobName.ApiKeyUsed)
class FirstHandler implements HandlesJob<JobName.ApiKeyUsed> {
  handle(): Promise<void> {
    return Promise.resolve();
  }
}

@JobHandler(JobName.ApiKeyUsed)
class FailingHandler implements HandlesJob<JobName.ApiKeyUsed> {
  handle(): Promise<void> {
    return Promise.reject(new Error('provider down'));
  }
}

@JobHandler(JobName.ApiKeyUsed)
class SecondHandler implements HandlesJob<JobName.ApiKeyUsed> {
  handle(): Promise<void> {
    return Promise.resolve();
  }
}

async function bootWith(handlers: Array<new () => HandlesJob>) {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    // The other job names get do-nothing handlers: these tests are about ApiKeyUsed.
    providers: [
      SwitchboardMetrics,
      JobHandlerRegistry,
      ...handlers,
      ...stubJobHandlers(JobName.ApiKeyUsed),
    ],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('JobHandlerRegistry', () => {
  it('maps each job name to its one handler', async () => {
    const moduleRef = await bootWith([FirstHandler]);
    expect(moduleRef.get(JobHandlerRegistry).get(JobName.ApiKeyUsed)).toBe(
      moduleRef.get(FirstHandler),
    );
    await moduleRef.close();
  });

  it('refuses to start when a job name has no handler', async () => {
    await expect(bootWith([])).rejects.toThrow(`job "${JobName.ApiKeyUsed}" has no handler`);
  });

  it('refuses to start when a job name has two handlers', async () => {
    await expect(bootWith([FirstHandler, SecondHandler])).rejects.toThrow(
      `job "${JobName.ApiKeyUsed}" has 2 handlers (FirstHandler, SecondHandler)`,
    );
  });

  it('times each attempt it runs under the job name and its outcome', async () => {
    const payload = { organizationId: 'o', apiKeyId: 'k', usedAt: new Date(0).toISOString() };
    const count = async (moduleRef: Awaited<ReturnType<typeof bootWith>>, outcome: string) => {
      const { values } = await moduleRef.get(SwitchboardMetrics).jobDuration.get();
      return values.find(
        (v) =>
          v.metricName === 'switchboard_queue_job_duration_seconds_count' &&
          v.labels.job === JobName.ApiKeyUsed &&
          v.labels.outcome === outcome,
      )?.value;
    };
    const ok = await bootWith([FirstHandler]);
    await ok.get(JobHandlerRegistry).run(JobName.ApiKeyUsed, payload, { attempt: 1, jobId: 'a' });
    expect(await count(ok, 'completed')).toBe(1);
    expect(await count(ok, 'failed')).toBeUndefined();
    await ok.close();
    const failing = await bootWith([FailingHandler]);
    await expect(
      failing.get(JobHandlerRegistry).run(JobName.ApiKeyUsed, payload, { attempt: 1, jobId: 'b' }),
    ).rejects.toThrow('provider down');
    expect(await count(failing, 'failed')).toBe(1);
    await failing.close();
  });
});
