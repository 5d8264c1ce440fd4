import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Command } from 'nest-commander';
import { BatchAccessService } from '../../modules/batches/batch-access.service';
import { ContactsExportService } from '../../modules/contacts/contacts-export.service';
import { objectIdArgument } from '../arguments';
import { UsageError } from '../exit-codes';
import { operatorPrincipal } from '../operator-principal';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

@Command({
  name: 'batch:export',
  arguments: '<batchId> <file>',
  description: "Write a batch's call records to a CSV file (the export route's columns)",
})
export class BatchExportCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute([id, file]: string[]): Promise<CommandResult> {
    const batchId = objectIdArgument('batchId', id);
    if (!file) throw new UsageError('file is required');
    const batch = await (await this.switchboard.get(BatchAccessService)).findForOperator(batchId);
    const principal = operatorPrincipal(batch.organizationId, batch.userId);
    const csv = await (
      await this.switchboard.get(ContactsExportService)
    ).exportCsv(principal, batchId);
    // Written beside the target and renamed at the end: a failure never leaves a file that
    // looks complete.
    const partial = `${file}.partial`;
    try {
      await pipeline(csv.getStream(), createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new UsageError(`${partial} exists: another export is writing it, or remove it`);
      }
      await rm(partial, { force: true });
      throw error;
    }
    const { size } = await stat(file);
    return {
      json: { batchId, file, bytes: size },
      text: [`Batch ${batchId} exported to ${file} (${size} bytes)`],
    };
  }
}
