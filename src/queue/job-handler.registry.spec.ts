import { Test } from '@nestjs/testing';
import { DiscoveryModule } from '@nestjs/core';
import type { HandlesJob } from './job-handler';
import { JobHandler } from './job-handler.decorator';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobName } from './jobs';
import { stubJobHandlers } from '../../test/support/job-handlers';

@JobHandler(JobName.ApiKeyUsed)
class FirstHandler implements HandlesJob<JobName.ApiKeyUsed> {
  handle(): Promise<void> {
    return Promise.resolve();
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
    providers: [JobHandlerRegistry, ...handlers, ...stubJobHandlers(JobName.ApiKeyUsed)],
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
});
