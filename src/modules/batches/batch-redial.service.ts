import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/access';
import { Clock } from '../../common/clock';
import { isInvalidRegex } from '../../database';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { BatchAccessService } from './batch-access.service';
import { phoneLogFilterOf } from './batch-filter';
import { BatchRedialRepository, type RedialSelection } from './batch-redial.repository';
import { toBatchSummary } from './batches.mapper';
import {
  DEFAULT_REDIAL_OUTCOMES,
  type RedialBatchDto,
  type RedialResultDto,
} from './dto/redial-batch.dto';

const OPERATION = 'redialBatch';

/**
 * Re-dial of a chosen subset of a batch (docs/dialer.md, Lifecycle): the closed records whose
 * last call ended with one of the outcomes (and match the filter and search) become due again
 * as a new attempt series, under the organization's dialing lock, in one transaction with the
 * Idempotency-Key's stored answer.
 */
@Injectable()
export class BatchRedialService {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly access: BatchAccessService,
    private readonly redials: BatchRedialRepository,
    private readonly clock: Clock,
  ) {}

  async redial(
    principal: Principal,
    batchId: string,
    dto: RedialBatchDto,
    key: string | undefined,
  ): Promise<RedialResultDto> {
    const selection = selectionOf(dto);
    const request = { batchId, ...dto };
    try {
      return await this.idempotency.run(principal.organizationId, OPERATION, key, request, () =>
        this.reopen(principal, batchId, selection),
      );
    } catch (error) {
      if (isInvalidRegex(error))
        throw new BadRequestException('search is not a valid regular expression');
      throw error;
    }
  }

  /** Runs in IdempotencyService's transaction. */
  private async reopen(
    principal: Principal,
    batchId: string,
    selection: RedialSelection,
  ): Promise<RedialResultDto> {
    const { organizationId } = principal;
    // First the lock, then the batch: cancel and the endAt's end take it too, so neither can
    // come between this read and the records' reopening.
    await this.redials.lockDialing(organizationId);
    const batch = await this.access.findAccessible(principal, batchId);
    if (batch.statusReason === 'cancelled')
      throw new ConflictException('A cancelled batch is not dialed again: create a new batch');
    if (batch.endAt && batch.endAt <= this.clock.now())
      throw new ConflictException('The batch has reached its endAt: create a new batch');
    const { redialed, completed } = await this.redials.reopenRecords(
      organizationId,
      { id: batch.id, searchIndexedTo: { at: batch.searchIndexedAt, id: batch.searchIndexedId } },
      selection,
    );
    if (redialed === 0) return { redialed, batch: toBatchSummary(batch) };
    const row = await this.redials.reactivate(organizationId, batch.id, completed);
    return { redialed, batch: toBatchSummary(row) };
  }
}

/** What the request selects; 400 when it names nothing to select by or a bad filter. */
function selectionOf(dto: RedialBatchDto): RedialSelection {
  if (!dto.outcomes && dto.filter === undefined && dto.search === undefined) {
    throw new BadRequestException(
      'Name the contacts to re-dial: outcomes, a filter or a search (or several)',
    );
  }
  return {
    outcomes: dto.outcomes ?? DEFAULT_REDIAL_OUTCOMES,
    filter: dto.filter === undefined ? {} : phoneLogFilterOf(dto.filter),
    search: dto.search,
  };
}
