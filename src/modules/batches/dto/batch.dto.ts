import { ApiProperty } from '@nestjs/swagger';
import { PaginationDto } from '../../../common/page.query';
import { STATUS_REASONS, type StatusReason } from '../batches.schema';

const QUEUE_STATUSES = ['active', 'paused', 'completed'];

export class BatchSummaryDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'November renewals' })
  batchName!: string;

  @ApiProperty({ example: 1200 })
  totalCalls!: number;

  @ApiProperty({ example: 310, description: 'Calls picked up or answered' })
  callsPicked!: number;

  @ApiProperty({ example: 280, description: 'Calls completed successfully' })
  callsCompleted!: number;

  @ApiProperty({ enum: QUEUE_STATUSES, example: 'active' })
  queue_status!: string;

  @ApiProperty({
    enum: STATUS_REASONS,
    nullable: true,
    type: String,
    example: null,
    description:
      'Why the batch is not dialing normally: null while all is well; `cancelled` (stopped by cancel, now completed), `failure_rate` (paused by the dialer: most recent calls failed), `no_agent` (paused: no voice agent to speak), `no_calling_number` (paused: none of its numbers is left), `end_at_reached` (completed at its endAt: contacts still waiting were closed).',
  })
  statusReason!: StatusReason | null;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-22T10:05:00.000Z' })
  updatedAt!: string;
}

export class BatchListDto {
  @ApiProperty({ type: [BatchSummaryDto] })
  batches!: BatchSummaryDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

export class DeleteBatchResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: 'Batch deleted' })
  message!: string;
}
