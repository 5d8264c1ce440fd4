import { Injectable } from '@nestjs/common';
import { Command } from 'nest-commander';
import { BatchAccessService } from '../../modules/batches/batch-access.service';
import { BatchesService } from '../../modules/batches/batches.service';
import type { BatchSummaryDto } from '../../modules/batches/dto/batch.dto';
import { objectIdArgument } from '../arguments';
import { operatorPrincipal } from '../operator-principal';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

type Change = 'pause' | 'resume' | 'cancel';

/** pause, resume and cancel: BatchesService's transitions, as the API's routes make them. */
@Injectable()
abstract class BatchStatusCommand extends SwitchboardCommand {
  protected abstract readonly change: Change;

  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute([id]: string[]): Promise<CommandResult> {
    const batchId = objectIdArgument('batchId', id);
    const batch = await (await this.switchboard.get(BatchAccessService)).findForOperator(batchId);
    const principal = operatorPrincipal(batch.organizationId, batch.userId);
    const batches = await this.switchboard.get(BatchesService);
    const summary: BatchSummaryDto = await batches[this.change](principal, batchId);
    const reason = summary.statusReason ? ` (${summary.statusReason})` : '';
    return {
      json: summary,
      text: [`Batch ${summary._id} ${summary.batchName}: ${summary.queue_status}${reason}`],
    };
  }
}

@Command({
  name: 'batch:pause',
  arguments: '<batchId>',
  description: 'Pause the dialing of a batch (calls already placed finish)',
})
export class BatchPauseCommand extends BatchStatusCommand {
  protected readonly change = 'pause';
}

@Command({
  name: 'batch:resume',
  arguments: '<batchId>',
  description: 'Resume the dialing of a paused batch',
})
export class BatchResumeCommand extends BatchStatusCommand {
  protected readonly change = 'resume';
}

@Command({
  name: 'batch:cancel',
  arguments: '<batchId>',
  description: 'Cancel a batch: every call not yet placed is never dialed',
})
export class BatchCancelCommand extends BatchStatusCommand {
  protected readonly change = 'cancel';
}
