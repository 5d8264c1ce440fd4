import { spawn } from 'node:child_process';

/** A command's failure, without its arguments or input (they may hold what a caller said). */
export class CommandError extends Error {
  constructor(
    command: string,
    reason: string,
    /** The command is not on this machine at all. */
    readonly missing = false,
  ) {
    super(`${command} ${reason}`);
    this.name = 'CommandError';
  }

  /** A process that died or hung may work when started again; a missing one never will. */
  get retryable(): boolean {
    return !this.missing;
  }
}

/**
 * Runs `command` without a shell, `input` on its stdin, and yields its stdout as it comes. An
 * abort kills the process and ends the iteration quietly; a failure throws a CommandError.
 */
export async function* streamCommand(
  command: string,
  args: readonly string[],
  input: string | Buffer,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  if (signal?.aborted) return;
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'failed'));
    child.once('close', (code, killedBy) => resolve(code ?? killedBy ?? 'failed'));
  });
  const kill = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', kill, { once: true });
  child.stdin.on('error', () => undefined); // EPIPE when the process dies before reading it all
  child.stdin.end(input);
  try {
    for await (const chunk of child.stdout) {
      if (signal?.aborted) return;
      yield chunk as Buffer;
    }
    const status = await exited;
    if (signal?.aborted) return;
    if (status === 'ENOENT') throw new CommandError(command, 'is not installed', true);
    if (status !== 0) throw new CommandError(command, `failed (${status})`);
  } finally {
    signal?.removeEventListener('abort', kill);
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}

/** Runs `command` to its end and returns its stdout. */
export async function runCommand(
  command: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamCommand(command, args, '', signal)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
