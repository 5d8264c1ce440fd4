import { Body, Controller, Delete, Get, Headers, Param, Post, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope, ApiRawResponse } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { CONTACT_RULES, CSV_UPLOAD_DESCRIPTION } from '../contacts/dto/import-contacts.dto';
import { ImportReportDto } from '../contacts/dto/import-report.dto';
import { CLAIM_LEASE_SECONDS } from '../idempotency/idempotency.service';
import { RETRY_OUTCOMES } from './batches.schema';
import { BATCH_ACCESS } from './batch-access.service';
import { BatchRedialService } from './batch-redial.service';
import { BatchesService } from './batches.service';
import { CreateBatchService, type CreatedBatch } from './create-batch.service';
import { BatchDetailsDto, CallRecordDto } from './dto/batch-details.dto';
import { BatchDetailsQuery, ListBatchesQuery } from './dto/batch-queries';
import { BatchListDto, BatchSummaryDto, DeleteBatchResponseDto } from './dto/batch.dto';
import { CreateBatchDto } from './dto/create-batch.dto';
import { RedialBatchDto, RedialResultDto } from './dto/redial-batch.dto';

/** createBatch's bodies: the JSON DTO, or the same fields as a form with an optional CSV. */
const CREATE_BATCH_BODY = {
  required: true,
  content: {
    'application/json': { schema: { $ref: getSchemaPath(CreateBatchDto) } },
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['batchName', 'callingNumbers'],
        properties: {
          batchName: { type: 'string', maxLength: 200, example: 'November renewals' },
          callingNumbers: {
            type: 'array',
            items: { type: 'string' },
            description: 'Phone record ids: the field repeated, or one JSON array text',
          },
          retry: { type: 'integer', minimum: 0, maximum: 10 },
          retryOn: {
            type: 'array',
            items: { type: 'string', enum: [...RETRY_OUTCOMES] },
            description:
              'Endings that earn a retry (default all but fax): repeated, or one JSON array text',
          },
          delay: { type: 'integer', minimum: 0, maximum: 86_400 },
          retryPolicy: {
            type: 'string',
            example: '{"busy":{"attempts":3,"delay":300},"no_answer":{"attempts":1}}',
            description: 'JSON text of the retryPolicy object (see the JSON body)',
          },
          startAt: { type: 'string', format: 'date-time', example: '2026-11-23T14:00:00Z' },
          endAt: { type: 'string', format: 'date-time', example: '2026-11-27T22:00:00Z' },
          timezone: { type: 'string', example: 'America/New_York' },
          callingHour: {
            type: 'string',
            example: '{"start":"09:00","end":"18:00"}',
            description: 'JSON text of { start, end } (HH:MM)',
          },
          allowedDays: {
            type: 'array',
            items: { type: 'integer', minimum: 0, maximum: 6 },
            description: '0 = Sunday through 6 = Saturday: repeated, or one JSON array text',
          },
          enforceCalleeLocalHours: { type: 'boolean', default: true },
          trustContactTimezone: { type: 'boolean', default: false },
          file: { type: 'string', format: 'binary', description: CSV_UPLOAD_DESCRIPTION },
        },
      },
      encoding: {
        callingNumbers: { style: 'form', explode: true },
        allowedDays: { style: 'form', explode: true },
        retryOn: { style: 'form', explode: true },
      },
    },
  },
};

@ApiTags('Batches')
@Controller('api/call')
export class BatchesController {
  constructor(
    private readonly batches: BatchesService,
    private readonly creator: CreateBatchService,
    private readonly redials: BatchRedialService,
  ) {}

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
  @Authenticated({ permission: 'calls' })
  @ApiOperation({
    summary: 'A batch with a page of its call records',
    description: BATCH_ACCESS,
  })
  @ApiEnvelope({ message: 'Batch details fetched', type: BatchDetailsDto, errorMessage: true })
  // BatchDetailsDto.data refers to CallRecordDto by $ref only: register it (and its phone logs).
  @ApiExtraModels(CallRecordDto)
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
  @ApiOperation({
    summary: 'Create a batch, optionally with its contacts',
    description:
      'application/json: the fields below, `contacts` optional. multipart/form-data: the same ' +
      'fields as form fields (numbers and booleans as text, callingHour and retryPolicy as JSON ' +
      'text, ' +
      'callingNumbers, retryOn and allowedDays repeated or as one JSON array text), all before an ' +
      `optional CSV in \`file\`. Both are validated alike (400 with \`errors\`). ${CONTACT_RULES} ` +
      'The batch and its contacts are created in one transaction: rejected rows are listed in ' +
      'the `contacts` report, while a request that fails (invalid field, file without a ' +
      'phoneNumber column or malformed, over UPLOAD_MAX_BYTES: 413, not a CSV: 415) creates ' +
      'no batch.',
    requestBody: CREATE_BATCH_BODY,
  })
  @ApiExtraModels(CreateBatchDto)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retry-safe creation: the same key and request returns the first result for 24 hours; ' +
      'another request answers 422, and 409 while the first is still running. A JSON request ' +
      'is compared by its body, a multipart request by its fields and the SHA-256 of the file. ' +
      'The result is stored in the same transaction as the batch, so a retry after a lost ' +
      'answer gets the same batch; a request that died in flight frees its key within ' +
      `${CLAIM_LEASE_SECONDS} seconds.`,
  })
  @ApiEnvelope({
    status: 201,
    message: 'Batch created',
    type: String,
    errorMessage: true,
    fields: {
      contacts: {
        type: ImportReportDto,
        description:
          'Only when contacts were sent (a contacts array or a file): counts and one error per ' +
          'rejected row, as append-contacts answers',
      },
    },
  })
  @ApiErrors(400, 409, 413, 415, 422)
  createBatch(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<CreatedBatch> {
    return this.creator.create(principal, request);
  }

  @Delete('delete-batch/:batchId')
  @Authenticated({ admin: true })
  @ApiRawResponse({
    type: DeleteBatchResponseDto,
    description:
      'Deleted for good: hidden from lists and details. Dialing stops at once: no call of the ' +
      'batch is claimed any more; calls already placed finish.',
  })
  @ApiDeleteErrors()
  deleteBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<DeleteBatchResponseDto> {
    return this.batches.delete(principal.organizationId, batchId);
  }

  @Post('batches/:batchId/pause')
  @Authenticated({ permission: 'calls' })
  @ApiOperation({
    summary: 'Pause the dialing of a batch',
    description:
      'No call of the batch is claimed once this answers; calls already placed (or being ' +
      'placed) finish, and their retries wait for a resume. The dialer also pauses a batch ' +
      'itself, with statusReason `failure_rate` (at least 5 attempts ended in the last 120 s ' +
      'and half or more of them failed), `no_agent` or `no_calling_number`. ' +
      BATCH_ACCESS,
  })
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
  @ApiOperation({
    summary: 'Resume the dialing of a batch',
    description:
      'Dialing continues from where it stopped (statusReason back to null); 409 when the ' +
      'batch has no active calling number. ' +
      BATCH_ACCESS,
  })
  @ApiEnvelope({ message: 'Batch resumed', type: BatchSummaryDto, errorMessage: true })
  @ApiErrors(400, 404, 409)
  resumeBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<BatchSummaryDto> {
    return this.batches.resume(principal, batchId);
  }

  @Post('batches/:batchId/cancel')
  @Authenticated({ permission: 'calls' })
  @ApiOperation({
    summary: 'Cancel a batch: stop every call not yet placed',
    description:
      'An active or paused batch becomes `completed` with statusReason `cancelled`. Its call ' +
      'records still waiting (never dialed, or waiting for a retry) are never dialed; calls ' +
      'already placed finish normally (they are not hung up) and are not retried. Counters ' +
      'stay true: callsCompleted still counts a call in flight that completes. 409 when the ' +
      'batch is already completed. ' +
      BATCH_ACCESS,
  })
  @ApiEnvelope({ message: 'Batch cancelled', type: BatchSummaryDto, errorMessage: true })
  @ApiErrors(400, 404, 409)
  cancelBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
  ): Promise<BatchSummaryDto> {
    return this.batches.cancel(principal, batchId);
  }

  @Post('batches/:batchId/redial')
  @Authenticated({ permission: 'calls' })
  @ApiOperation({
    summary: 'Re-dial a chosen subset of a batch as a new attempt series',
    description:
      'The contacts whose last call ended with one of `outcomes` (default no-answer, busy, ' +
      'voicemail, failed; `completed` only when named) and that match `filter` and `search` ' +
      '(as batch details read them) become due at once, each as a new attempt series: its ' +
      'retry budgets (`retry`, `retryPolicy`) start again, its earlier calls stay in its phone ' +
      'logs. Only contacts whose calls are over are taken: never one still waiting or on a ' +
      'call, one withdrawn for the do-not-call list or whose number the list holds now, nor ' +
      'one of another batch. The same request again while the first series is under way ' +
      'finds nothing to re-dial (`redialed: 0`) and changes nothing. The calling window, the ' +
      "callee's hours and caps, and `endAt` apply as to any call. A batch that had completed " +
      'becomes `active` again when contacts were re-opened (a paused one stays paused), and ' +
      'callsCompleted no longer counts a completed contact called again. Taken under the ' +
      "organization's dialing lock: a claim in progress finishes first. 400: no outcomes, " +
      'filter or search, an unknown outcome, a bad filter or pattern. 409: a cancelled batch, ' +
      'or one whose endAt has passed. ' +
      BATCH_ACCESS,
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retry-safe re-dial: the same key and request returns the first answer for 24 hours and ' +
      'changes nothing; another request answers 422, and 409 while the first is still running. ' +
      'The answer is stored in the same transaction as the re-opened contacts.',
  })
  @ApiEnvelope({ message: 'Batch re-dial scheduled', type: RedialResultDto, errorMessage: true })
  @ApiErrors(400, 404, 409, 422)
  redialBatch(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
    @Body() dto: RedialBatchDto,
    @Headers('Idempotency-Key') key?: string,
  ): Promise<RedialResultDto> {
    return this.redials.redial(principal, batchId, dto, key);
  }
}
