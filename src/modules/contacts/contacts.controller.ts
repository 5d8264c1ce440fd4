import { Body, Controller, Get, Param, Post, Query, Req, StreamableFile } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ErrorEnvelopeDto } from '../../common/error-envelope.dto';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { BATCH_ACCESS } from '../batches/batch-access.service';
import { ContactsExportService } from './contacts-export.service';
import { IMPORT_CHUNK_ROWS } from './contacts-import.service';
import { ContactsUploadService } from './contacts-upload.service';
import { ExportCsvQuery } from './dto/export-csv.query';
import {
  CONTACT_RULES,
  CSV_UPLOAD_DESCRIPTION,
  ImportContactsDto,
} from './dto/import-contacts.dto';
import { ImportReportDto } from './dto/import-report.dto';

@ApiTags('Contacts')
@Controller('api/call')
export class ContactsController {
  constructor(
    private readonly uploads: ContactsUploadService,
    private readonly exports: ContactsExportService,
  ) {}

  @Post('batches/:batchId/contacts')
  @Authenticated({ permission: 'calls' })
  @ApiOperation({
    summary: 'Append contacts to a batch',
    description:
      'JSON contacts or a CSV upload. Every row is accounted for: counts plus one error per ' +
      'rejected row (invalid or missing number, invalid field, duplicate within the batch or ' +
      `this import, number on the do-not-call list). ${CONTACT_RULES} Rows are committed in ` +
      `chunks of ${IMPORT_CHUNK_ROWS.toLocaleString('en-US')} together with the batch ` +
      'totalCalls: if the request fails halfway, the chunks before the failure stay imported. ' +
      'An upload is received whole before the import starts. A batch that completed on its own ' +
      '(queue_status `completed`, statusReason null) becomes `active` again when at least one ' +
      'contact is imported, in the same commit, and the dialer calls the new records; a paused ' +
      'batch stays paused (the records wait for a resume); an import with no contact imported ' +
      'changes no status. A cancelled batch (statusReason `cancelled`) takes no more contacts: ' +
      '409, nothing stored (a cancel during a long import stops it at its next chunk); create ' +
      'a new batch. So does one that reached its endAt (statusReason `end_at_reached`). ' +
      BATCH_ACCESS,
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiExtraModels(ImportContactsDto)
  @ApiBody({
    description:
      'application/json: `{ contacts }` (the first schema); multipart/form-data: a CSV in the ' +
      'field `file` (the second schema).',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(ImportContactsDto) },
        {
          title: 'CSV upload',
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', format: 'binary', description: CSV_UPLOAD_DESCRIPTION },
          },
        },
      ],
    },
  })
  @ApiEnvelope({
    status: 201,
    message: 'Contacts imported',
    type: ImportReportDto,
    errorMessage: true,
  })
  @ApiErrors(400, 404, 413, 415)
  @ApiConflictResponse({
    description:
      'The batch was cancelled (cancel is final) or reached its endAt: nothing was stored',
    type: ErrorEnvelopeDto,
  })
  importContacts(
    @CurrentPrincipal() principal: Principal,
    @Param('batchId', ParseObjectIdPipe) batchId: string,
    @Body() body: ImportContactsDto,
    @Req() request: Request,
  ): Promise<ImportReportDto> {
    return this.uploads.importRequest(principal, batchId, body, request);
  }

  @Get('export/csv')
  @Authenticated({ permission: 'calls' })
  @ApiOperation({ summary: "Download a batch's call records as CSV", description: BATCH_ACCESS })
  @ApiOkResponse({
    description:
      'Streamed text/csv (attachment batch-<batchId>.csv, CRLF lines, RFC 4180 quoting, no BOM), ' +
      'one row per call record in creation order. Columns: _id, phoneNumber, every contact field ' +
      'used in the batch (sorted by name; one named like a fixed column is written as ' +
      'contact.<name>), then the latest phone log: callStatus, callDuration, recordingUrl, ' +
      'transcript, requestUUID, lastCalledAt (empty when never called), then createdAt; times ' +
      'in ISO 8601 UTC. Against formula injection every cell that starts with = + - @, tab or ' +
      "CR gets a leading ' — E.164 numbers too ('+14155551234); the contacts import accepts " +
      'that form back.',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 404)
  exportBatchCsv(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ExportCsvQuery,
  ): Promise<StreamableFile> {
    return this.exports.exportCsv(principal, query.batchId);
  }
}
