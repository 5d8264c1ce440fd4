import { Body, Controller, Delete, Get, Headers, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope, ApiRawResponse } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { BatchesService } from './batches.service';
import { BatchDetailsDto } from './dto/batch-details.dto';
import { BatchDetailsQuery, ListBatchesQuery } from './dto/batch-queries';
import { BatchListDto, BatchSummaryDto, DeleteBatchResponseDto } from './dto/batch.dto';
import { CreateBatchDto } from './dto/create-batch.dto';

@ApiTags('Batches')
@Controller('api/call')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Get('batches/:userId')
  @Authenticated({ permission: 'calls' })
  @ApiEnvelope({ message: 'Batches fetched', type: BatchListDto, errorMessage: true })
  @ApiErrors(400, 404)
  listBatches(
    @CurrentPrincipal() principal: Principal,
    @Param('userId', ParseObjectIdPipe) userId: string,
    @Query() query: ListBatchesQuery,
  ): Promise<BatchListDto> {
    return this.batches.listForUser(principal, userId, query);
  }

  @Get('batch-details/:id')
  @Authenticated({ permission: 'calls', apiKey: false })
  @ApiEnvelope({ message: 'Batch details fetched', type: BatchDetailsDto, errorMessage: true })
  @ApiErrors(400, 404)
  getBatchDetails(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Query() query: BatchDetailsQuery,
  ): Promise<BatchDetailsDto> {
    return this.batches.details(principal, id, query);
  }

  @Post('createBatch')
  @Authenticated({ permission: 'calls', unauthenticatedStatus: 403 })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retry-safe creation: the same key and body returns the first result for 24 hours; another body answers 422',
  })
  @ApiEnvelope({ status: 201, message: 'Batch created', type: String, errorMessage: true })
  @ApiErrors(400, 409, 422)
  createBatch(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateBatchDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<string> {
    return this.batches.create(principal, dto, idempotencyKey);
  }

  @Delete('delete-batch/:batchId')
  @Authenticated({ admin: true })
  @ApiRawResponse({
    type: DeleteBatchResponseDto,
    description: 'Deleted for good: hidden from lists and details',
  })
  @ApiErrors(400, 404)
  deleteBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<DeleteBatchResponseDto> {
    return this.batches.delete(principal.organizationId, batchId);
  }

  @Post('batches/:batchId/pause')
  @Authenticated({ permission: 'calls' })
  @ApiEnvelope({ message: 'Batch paused', type: BatchSummaryDto, errorMessage: true })
  @ApiErrors(400, 404, 409)
  pauseBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<BatchSummaryDto> {
    return this.batches.pause(principal, batchId);
  }

  @Post('batches/:batchId/resume')
  @Authenticated({ permission: 'calls' })
  @ApiEnvelope({ message: 'Batch resumed', type: BatchSummaryDto, errorMessage: true })
  @ApiErrors(400, 404, 409)
  resumeBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<BatchSummaryDto> {
    return this.batches.resume(principal, batchId);
  }
}
