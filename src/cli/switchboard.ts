import { CommandFactory } from 'nest-commander';
import { installProcessPolicy } from '../process-policy';
import { CliModule } from './cli.module';
import { EXIT_FAILURE, failureOf } from './exit-codes';
import { exitOnCommanderStop } from './switchboard-command';

/**
 * The operator CLI: `npm run -s cli -- <command> [options]` (docs/operator.md). Exit codes: 0 ok,
 * 1 the command failed, 2 usage error. Commands set process.exitCode; the process then exits
 * once the application context is closed.
 */
async function main(): Promise<void> {
  // A command has nothing to drain: an uncaught exception ends it at once, as a failure.
  installProcessPolicy({
    logger: { error: (message) => process.stderr.write(`error: ${message}\n`) },
    stop: () => process.exit(EXIT_FAILURE),
  });
  await CommandFactory.run(CliModule.forRoot(process.env), {
    cliName: 'switchboard',
    logger: false,
    errorHandler: exitOnCommanderStop,
    serviceErrorHandler: (error) => {
      process.stderr.write(`error: ${failureOf(error).message}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  });
  // Open handles (a Redis reconnect timer, say) must not keep a finished command alive.
  process.exit();
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${failureOf(error).message}\n`);
  process.exit(EXIT_FAILURE);
});
