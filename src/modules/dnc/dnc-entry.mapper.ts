import type { DncEntryRow } from './dnc.schema';
import type { DncEntryDto } from './dto/dnc-entry.dto';

/** An entry as the API shows it (list, lookup and export alike). */
export function toDncEntryDto(row: DncEntryRow): DncEntryDto {
  return {
    _id: row.id,
    phoneNumber: row.phoneNumber,
    type: row.type,
    source: row.source,
    batchId: row.batchId,
    callRecordId: row.callRecordId,
    requestUUID: row.requestUuid,
    recordingUrl: row.recordingUrl,
    transcript: row.transcript,
    createdAt: row.createdAt.toISOString(),
  };
}
