import { Injectable, NotFoundException } from '@nestjs/common';
import type { Principal } from '../../auth/access';
import { BatchesRepository } from './batches.repository';
import type { BatchRow } from './batches.schema';

/** The rule in the OpenAPI description of every route that names a batch. */
export const BATCH_ACCESS =
  'A member reaches the batches they own; an admin or an API key reaches every batch of the ' +
  'organization. Any other batch answers 404, as one that does not exist.';

/**
 * Who may reach a batch: its owner, and an admin or API key (which acts as admin) of its
 * organization. Other members get the same 404 as for a batch that does not exist.
 */
export function mayAccessBatch(principal: Principal, batch: Pick<BatchRow, 'userId'>): boolean {
  return principal.role === 'admin' || batch.userId === principal.userId;
}

/**
 * The one access check of every route that names a batch (details, export, append-contacts,
 * pause/resume, DNC add). Kept apart from BatchesService so the contacts module, which
 * BatchesModule imports, can use it too.
 */
@Injectable()
export class BatchAccessService {
  constructor(private readonly batches: BatchesRepository) {}

  /** The live batch when the caller may reach it; 404 otherwise. */
  async findAccessible(principal: Principal, batchId: string): Promise<BatchRow> {
    const batch = await this.batches.findLive(principal.organizationId, batchId);
    if (!batch || !mayAccessBatch(principal, batch)) throw new NotFoundException('Batch not found');
    return batch;
  }

  /** The operator CLI's batch: any live batch of any organization; 404 otherwise. */
  async findForOperator(batchId: string): Promise<BatchRow> {
    const batch = await this.batches.findLiveInAnyOrganization(batchId);
    if (!batch) throw new NotFoundException('Batch not found');
    return batch;
  }
}
