import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, type TestApp } from './test-app';

const ROOT = resolve(__dirname, '../..');
const SOURCE = join(ROOT, 'src/cli/switchboard.ts');
const BUNDLE = join(ROOT, 'dist/bundle/switchboard.js');
/** Compiling the app with swc and booting it takes ~5 s of CPU; a busy box stretches that. */
const CLI_TIMEOUT_MS = 120_000;

let entry: string[] | undefined;

/**
 * The built CLI when the build is of these very sources (`npm test` builds first; a fifth of
 * the CPU per run), else the sources through swc.
 */
function cliEntry(): string[] {
  entry ??=
    spawnSync(process.execPath, [join(ROOT, 'scripts/build-stamp.js'), 'check'], { cwd: ROOT })
      .status === 0
      ? [BUNDLE]
      : ['-r', require.resolve('@swc-node/register'), SOURCE];
  return entry;
}

/**
 * `switchboard` as a shell word list (node and its arguments, absolute paths): what
 * `npm run -s cli --` runs, for scripts that call it from another directory. From the sources,
 * swc needs SWC_NODE_PROJECT (see cliEnv) to find the path aliases.
 */
export function cliCommand(): string[] {
  return [process.execPath, ...cliEntry()];
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI run against a test app's database (and its Redis prefix): only
 * these variables, nothing from the caller's shell.
 */
export function cliEnv(t: TestApp, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // In embedded queue mode the CLI delivers webhooks itself, to the test CA's receivers.
    NODE_EXTRA_CA_CERTS: join(ROOT, 'test/fixtures/tls/ca.crt'),
    NODE_ENV: 'test',
    SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    DATABASE_URL: t.database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...(t.config.redis.url
      ? { REDIS_URL: t.config.redis.url, REDIS_PREFIX: t.config.redis.prefix }
      : {}),
    ...extra,
  };
}

/** Runs `switchboard <args>` as a child process and collects its output. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [...cliEntry(), ...args], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((settle, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchboard ${args.join(' ')} still running after ${CLI_TIMEOUT_MS} ms`));
    }, CLI_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      settle({
        code,
        stdout: Buffer.concat(stdout).toString(),
        stderr: Buffer.concat(stderr).toString(),
      });
    });
  });
}
