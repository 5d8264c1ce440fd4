import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Command } from 'nest-commander';
import { BatchAccessService } from '../../modules/batches/batch-access.service';
import {
  assertTakesContacts,
  ContactsImportService,
} from '../../modules/contacts/contacts-import.service';
import type { ImportReport } from '../../modules/contacts/import-report';
import { objectIdArgument } from '../arguments';
import { UsageError } from '../exit-codes';
import { ImportProgress } from '../import-progress';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

/** Rejected rows listed in the text summary; --json lists what the report holds (up to 1,000). */
const LISTED_REJECTIONS = 20;

@Command({
  name: 'contacts:import',
  arguments: '<batchId> <file>',
  description:
    'Append the contacts of a CSV file to a batch, as the append-contacts route does ' +
    '(header row with a phoneNumber column); prints the rejected rows',
})
export class ContactsImportCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute([id, file]: string[]): Promise<CommandResult> {
    const batchId = objectIdArgument('batchId', id);
    const size = await fileSize(file);
    const batch = await (await this.switchboard.get(BatchAccessService)).findForOperator(batchId);
    // Before reading the file, as the route does: a cancelled batch takes no contacts (409).
    assertTakesContacts(batch);
    const importer = await this.switchboard.get(ContactsImportService);
    const progress = new ImportProgress(size);
    const counted = progress.counter();
    const reading = pipeline(createReadStream(file), counted);
    let report: ImportReport;
    try {
      report = await importer.importCsv(batch.organizationId, batchId, counted);
    } finally {
      progress.stop();
      counted.destroy();
      await reading.catch(() => undefined);
    }
    return { json: report, text: summary(report) };
  }
}

async function fileSize(file: string): Promise<number> {
  try {
    const found = await stat(file);
    if (found.isFile()) return found.size;
  } catch {
    // answered below
  }
  throw new UsageError(`${file} is not a readable file`);
}

function summary(report: ImportReport): string[] {
  const lines = [
    `Imported ${report.imported} of ${report.received} rows; ${report.rejected} rejected`,
  ];
  for (const error of report.errors.slice(0, LISTED_REJECTIONS)) {
    const field = error.field ? ` (${error.field})` : '';
    lines.push(`  row ${error.row}: ${error.reason}${field}`);
  }
  const unlisted = report.rejected - Math.min(report.errors.length, LISTED_REJECTIONS);
  if (unlisted > 0) lines.push(`  ... and ${unlisted} more (--json lists up to 1,000)`);
  return lines;
}
