import type { CallRecordPageRow } from './batch-details.repository';
import type { BatchDetailsDto, CallRecordDto } from './dto/batch-details.dto';
import type { BatchSummaryDto } from './dto/batch.dto';
import type { BatchRow } from './batches.schema';

export function toBatchSummary(row: BatchRow): BatchSummaryDto {
  return {
    _id: row.id,
    batchName: row.batchName,
    totalCalls: row.totalCalls,
    callsPicked: row.callsPicked,
    callsCompleted: row.callsCompleted,
    queue_status: row.queueStatus,
    statusReason: row.statusReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Contact fields spread first, so the record's own fields always win. */
export function toCallRecord(row: CallRecordPageRow): CallRecordDto {
  return {
    ...row.contact,
    _id: row.id,
    phoneNumber: row.phoneNumber,
    ...(row.phoneLogs.length > 0 ? { phoneLogs: row.phoneLogs } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toBatchDetails(
  batch: BatchRow,
  page: { page: number; limit: number; total: number },
  records: CallRecordDto[],
): BatchDetailsDto {
  return {
    batchId: batch.id,
    batchName: batch.batchName,
    batchStatus: batch.queueStatus,
    statusReason: batch.statusReason,
    agentId: batch.agentId,
    startAt: batch.startAt?.toISOString() ?? null,
    endAt: batch.endAt?.toISOString() ?? null,
    retryPolicy: batch.retryPolicy,
    page: page.page,
    limit: page.limit,
    total: page.total,
    totalPages: Math.ceil(page.total / page.limit),
    data: records,
  };
}
