import { type HandlesJob, JobHandler, JobName } from '../../src/queue';

/**
 * Do-nothing handlers for every job name but `handled`: the registry refuses to start while a
 * job has no handler, so a test module that boots the queue with its own handler needs these.
 */
export function stubJobHandlers(...handled: JobName[]): Array<new () => HandlesJob> {
  return Object.values(JobName)
    .filter((name) => !handled.includes(name))
    .map((name) => {
      @JobHandler(name)
      class StubJobHandler implements HandlesJob {
        handle(): Promise<void> {
          return Promise.resolve();
        }
      }
      return StubJobHandler;
    });
}
