import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';

export const ROOT = resolve(__dirname, '../..');
/** The built server (`npm run build`), as the image runs it. */
export const BUILT_ENTRY = join(ROOT, 'dist/bundle/main.js');

export interface BuiltServer {
  child: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

/**
 * Starts `node dist/bundle/main.js` in embedded mode on `dataDir` and a free port, with only
 * `env` beside PATH and HOME: nothing from the caller's shell (DATABASE_URL, REDIS_URL,
 * NODE_OPTIONS...) leaks in. Does not wait for it to listen.
 */
export async function startBuiltServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<BuiltServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [BUILT_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle) =>
    child.once('exit', (code, signal) => settle({ code, signal })),
  );
  return { child, port, exited, stdout: () => stdout, stderr: () => stderr };
}

/** The messages of the JSON log lines, in order. */
export const logMessages = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
