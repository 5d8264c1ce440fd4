import { CommandRunner, Option } from 'nest-commander';
import { EXIT_OK, EXIT_USAGE, failureOf } from './exit-codes';

type Commander = Parameters<CommandRunner['setCommand']>[0];

/** What a command answers: the `--json` object, and the lines a person reads otherwise. */
export interface CommandResult {
  json: unknown;
  text: string[];
}

/** `--help` and `--version` are answers; every other commander stop is a usage error (exit 2). */
export function exitOnCommanderStop(error: Error): never {
  const { code } = error as Error & { code?: string };
  const answered = code === 'commander.helpDisplayed' || code === 'commander.version';
  // commander has written its message to stderr already; nothing was opened yet.
  process.exit(answered ? EXIT_OK : EXIT_USAGE);
}

/**
 * A command of the operator CLI. Output goes to stdout (one JSON document with `--json`, lines
 * otherwise); a failure writes one message to stderr (JSON `{ error, exitCode }` with `--json`)
 * and sets the exit code (exit-codes.ts). Commands call the application's services, so the
 * rules (who may be paused, which rows import) are the API's.
 */
export abstract class SwitchboardCommand extends CommandRunner {
  override setCommand(command: Commander): this {
    // Sub-commands do not inherit the root's exit override: each one gets it here.
    command.exitOverride(exitOnCommanderStop);
    return super.setCommand(command);
  }

  async run(params: string[], options: Record<string, unknown> = {}): Promise<void> {
    const json = options.json === true;
    try {
      const result = await this.execute(params, options);
      process.stdout.write(
        json ? `${JSON.stringify(result.json)}\n` : result.text.map((line) => `${line}\n`).join(''),
      );
      process.exitCode = EXIT_OK;
    } catch (error) {
      const { exitCode, message } = failureOf(error);
      process.stderr.write(
        json ? `${JSON.stringify({ error: message, exitCode })}\n` : `error: ${message}\n`,
      );
      process.exitCode = exitCode;
    }
  }

  @Option({ flags: '--json', description: 'one JSON document on stdout instead of text' })
  parseJson(): boolean {
    return true;
  }

  protected abstract execute(
    params: string[],
    options: Record<string, unknown>,
  ): Promise<CommandResult>;
}
