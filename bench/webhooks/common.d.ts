// The types of the parts of common.js the TypeScript benches use.
import type { ChildProcess } from 'node:child_process';

export { killChild, startRedis } from '../lib/harness';

/** The built worker (PROCESS_ROLE=worker) as a child process, added to `children`. */
export function startWorker(
  env: Record<string, string>,
  children: ChildProcess[],
  workerPath?: string,
): ChildProcess;
