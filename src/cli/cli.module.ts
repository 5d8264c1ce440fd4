import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../config/env-readers';
import { AdminCreateCommand } from './commands/admin-create.command';
import { ApiKeyIssueCommand, ApiKeyRevokeCommand } from './commands/api-key.commands';
import { BatchExportCommand } from './commands/batch-export.command';
import {
  BatchCancelCommand,
  BatchPauseCommand,
  BatchResumeCommand,
} from './commands/batch-status.commands';
import { ContactsImportCommand } from './commands/contacts-import.command';
import { WebhooksReplayCommand } from './commands/webhooks-replay.command';
import { CLI_ENV, SwitchboardContext } from './switchboard-context';

const COMMANDS = [
  AdminCreateCommand,
  ApiKeyIssueCommand,
  ApiKeyRevokeCommand,
  ContactsImportCommand,
  BatchExportCommand,
  BatchPauseCommand,
  BatchResumeCommand,
  BatchCancelCommand,
  WebhooksReplayCommand,
];

/** The commands only: the application they call boots on first use (SwitchboardContext). */
@Module({})
export class CliModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: CliModule,
      providers: [{ provide: CLI_ENV, useValue: env }, SwitchboardContext, ...COMMANDS],
    };
  }
}
