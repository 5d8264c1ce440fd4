import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { FieldError } from '@app/contracts';
import type { Principal } from '../../auth/access';
import { Clock } from '../../common/clock';
import { ValidationFailedException } from '../../common/validation';
import { toPagination } from '../../common/page.query';
import { isInvalidRegex } from '../../database';
import { AgentsRepository } from '../agents/agents.repository';
import { UsersService } from '../users/users.service';
import { BatchAccessService } from './batch-access.service';
import { BatchDetailsRepository, type PageTotal } from './batch-details.repository';
import { parsePhoneLogFilter } from './batch-filter';
import { BatchesRepository } from './batches.repository';
import { type BatchRow, RETRY_OUTCOMES, type RetryPolicy } from './batches.schema';
import { toBatchDetails, toBatchSummary, toCallRecord } from './batches.mapper';
import type { BatchDetailsDto } from './dto/batch-details.dto';
import type { BatchDetailsQuery, ListBatchesQuery } from './dto/batch-queries';
import type { BatchListDto, BatchSummaryDto, DeleteBatchResponseDto } from './dto/batch.dto';
import type { CreateBatchDto } from './dto/create-batch.dto';
import type { RetryPolicyDto } from './dto/retry-policy.dto';

@Injectable()
export class BatchesService {
  constructor(
    private readonly batches: BatchesRepository,
    private readonly records: BatchDetailsRepository,
    private readonly users: UsersService,
    private readonly access: BatchAccessService,
    private readonly agents: AgentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates an active batch owned by the caller (an API key's creator) and answers its id.
   * Contacts and Idempotency-Key are CreateBatchService's: this is the batch row's own rules.
   * Runs inside the caller's transaction (the agent is held until it commits).
   */
  async create(principal: Principal, dto: CreateBatchDto): Promise<string> {
    const { startAt, endAt } = this.schedule(dto);
    await this.assertCallingNumbers(principal.organizationId, dto.callingNumbers);
    if (!(await this.users.findById(principal.organizationId, principal.userId))) {
      throw new ForbiddenException('No user found for these credentials');
    }
    if (
      dto.agentId !== undefined &&
      !(await this.agents.holdForReference(principal.organizationId, dto.agentId))
    ) {
      throw new NotFoundException('Agent not found');
    }
    const row = await this.batches.create(principal.organizationId, {
      userId: principal.userId,
      batchName: dto.batchName,
      callingNumbers: dto.callingNumbers,
      retry: dto.retry ?? 0,
      retryOn: dto.retryOn ?? null,
      delay: dto.delay ?? 0,
      retryPolicy: dto.retryPolicy ? retryPolicyOf(dto.retryPolicy) : null,
      startAt,
      endAt,
      timezone: dto.timezone ?? 'UTC',
      callingHourStart: dto.callingHour?.start ?? null,
      callingHourEnd: dto.callingHour?.end ?? null,
      allowedDays: dto.allowedDays ? [...dto.allowedDays].sort() : undefined,
      enforceCalleeLocalHours: dto.enforceCalleeLocalHours ?? true,
      trustContactTimezone: dto.trustContactTimezone ?? false,
      agentId: dto.agentId ?? null,
      maxConcurrentCalls: dto.maxConcurrentCalls ?? null,
      recordCalls: dto.recordCalls ?? false,
    });
    return row.id;
  }

  /** startAt and endAt as instants: endAt in the future and after startAt (400 otherwise). */
  private schedule(dto: CreateBatchDto): { startAt: Date | null; endAt: Date | null } {
    const startAt = dto.startAt === undefined ? null : new Date(dto.startAt);
    const endAt = dto.endAt === undefined ? null : new Date(dto.endAt);
    const errors: FieldError[] = [];
    if (endAt && endAt <= this.clock.now())
      errors.push({ field: 'endAt', message: 'endAt must be in the future' });
    if (endAt && startAt && endAt <= startAt)
      errors.push({ field: 'endAt', message: 'endAt must be after startAt' });
    if (errors.length > 0) throw new ValidationFailedException(errors);
    return { startAt, endAt };
  }

  /**
   * The caller's own live batches, newest first; 404 when none match (as the seed says). Someone
   * else of the organization answers 403; a user the organization does not have answers 404,
   * as an id that does not exist.
   */
  async listForUser(
    principal: Principal,
    userId: string,
    query: ListBatchesQuery,
  ): Promise<BatchListDto> {
    if (userId !== principal.userId) {
      if (!(await this.users.findById(principal.organizationId, userId)))
        throw new NotFoundException('User not found');
      throw new ForbiddenException('Only your own batches can be listed');
    }
    const { rows, total } = await this.batches.listForOwner(
      principal.organizationId,
      userId,
      query,
    );
    if (total === 0) throw new NotFoundException('No batches found for this user');
    return {
      batches: rows.map(toBatchSummary),
      pagination: toPagination(total, query.page, query.limit),
    };
  }

  async details(
    principal: Principal,
    batchId: string,
    query: BatchDetailsQuery,
  ): Promise<BatchDetailsDto> {
    const batch = await this.access.findAccessible(principal, batchId);
    const filter = parsePhoneLogFilter(query.filter);
    try {
      const { rows, total } = await this.records.page(
        principal.organizationId,
        batch.id,
        {
          ...query,
          filter,
          sortBy: query.sortBy ?? 'createdAt',
          searchIndexedTo: { at: batch.searchIndexedAt, id: batch.searchIndexedId },
        },
        pageTotal(batch, filter, query.search),
      );
      return toBatchDetails(
        batch,
        { page: query.page, limit: query.limit, total },
        rows.map(toCallRecord),
      );
    } catch (error) {
      if (isInvalidRegex(error))
        throw new BadRequestException('search is not a valid regular expression');
      throw error;
    }
  }

  async delete(organizationId: string, batchId: string): Promise<DeleteBatchResponseDto> {
    if (!(await this.batches.softDelete(organizationId, batchId, new Date()))) {
      throw new NotFoundException('Batch not found');
    }
    return { success: true, message: 'Batch deleted' };
  }

  async pause(principal: Principal, batchId: string): Promise<BatchSummaryDto> {
    const batch = await this.access.findAccessible(principal, batchId);
    if (batch.queueStatus !== 'active')
      throw new ConflictException(`A ${batch.queueStatus} batch cannot be paused`);
    return toBatchSummary(
      await this.batches.setQueueStatus(principal.organizationId, batchId, 'paused', null),
    );
  }

  async resume(principal: Principal, batchId: string): Promise<BatchSummaryDto> {
    const batch = await this.access.findAccessible(principal, batchId);
    if (batch.queueStatus !== 'paused')
      throw new ConflictException(`A ${batch.queueStatus} batch cannot be resumed`);
    await this.assertCallingNumbers(
      principal.organizationId,
      batch.callingNumbers,
      ConflictException,
    );
    return toBatchSummary(
      await this.batches.setQueueStatus(principal.organizationId, batchId, 'active', null),
    );
  }

  /** Stops every call not yet placed; the batch completes (statusReason cancelled). */
  async cancel(principal: Principal, batchId: string): Promise<BatchSummaryDto> {
    const batch = await this.access.findAccessible(principal, batchId);
    const cancelled = await this.batches.cancel(principal.organizationId, batch.id);
    if (!cancelled) throw new ConflictException('A completed batch cannot be cancelled');
    return toBatchSummary(cancelled);
  }

  /** Called when a phone number is deleted: it leaves every batch, which pause when left with none. */
  removeCallingNumber(organizationId: string, phoneId: string): Promise<string[]> {
    return this.batches.removeCallingNumber(organizationId, phoneId);
  }

  /** Every id must be a phone record of the organization, and one of them active. */
  private async assertCallingNumbers(
    organizationId: string,
    ids: string[],
    failure: new (message: string) => Error = BadRequestException,
  ): Promise<void> {
    const found = await this.batches.findCallingNumbers(organizationId, ids);
    const unknown = ids.filter((id) => !found.some((phone) => phone.id === id));
    if (unknown.length > 0)
      throw new failure(`callingNumbers not found in this organization: ${unknown.join(', ')}`);
    if (!found.some((phone) => phone.status === 'active')) {
      throw new failure('At least one active outbound phone number is required');
    }
  }
}

/**
 * Totals of the common shapes come from counters kept in step with the rows (a count over a
 * million records costs ~140 ms); anything else is counted.
 */
function pageTotal(
  batch: BatchRow,
  filter: ReturnType<typeof parsePhoneLogFilter>,
  search: string | undefined,
): PageTotal {
  if (search) return {};
  const keys = Object.keys(filter);
  if (keys.length === 0) return { known: batch.totalCalls };
  if (keys.length === 1 && typeof filter.callStatus === 'string') {
    return { callStatus: filter.callStatus };
  }
  return {};
}

/** The policy as stored: only the outcomes it names, each with what it gives. */
function retryPolicyOf(dto: RetryPolicyDto): RetryPolicy {
  const policy: RetryPolicy = {};
  for (const outcome of RETRY_OUTCOMES) {
    const rule = dto[outcome];
    if (rule)
      policy[outcome] =
        rule.delay === undefined
          ? { attempts: rule.attempts }
          : { attempts: rule.attempts, delay: rule.delay };
  }
  return policy;
}
