import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Param,
  Post,
  Query,
  Req,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { BATCH_ACCESS } from '../batches/batch-access.service';
import { DNC_EXPORTED, DncExportService } from './dnc-export.service';
import { DNC_IMPORT_CHUNK_ROWS, DncImportService } from './dnc-import.service';
import { DNC_TEXT_MAX } from './dnc-row';
import { DncService } from './dnc.service';
import { AddDncDto } from './dto/add-dnc.dto';
import { DncCheckDto, DncEntryDto, DncListDto } from './dto/dnc-entry.dto';
import { DncImportReportDto } from './dto/dnc-import-report.dto';
import { CheckDncQuery, ListDncQuery } from './dto/dnc-queries';

const IMPORT_FILE_DESCRIPTION =
  'The list, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). A CSV (UTF-8, ' +
  'comma-separated, header row first) needs a phoneNumber column (any letter case) and may ' +
  'have type (or reason) and source columns; other columns are ignored. A JSON file (part ' +
  'type application/json, or a name ending in .json) is one array of entries ' +
  '`{ phoneNumber, type?, reason?, source? }` or of bare numbers, or an object whose `data` is ' +
  'that array (the JSON export as it is). Numbers are read as the contacts import reads them (E.164, `+` optional, ' +
  `spreadsheet damage survived); type and source are text of at most ${DNC_TEXT_MAX} characters.`;

@ApiTags('Do-not-call list')
@Controller('api/dnc')
export class DncController {
  constructor(
    private readonly dnc: DncService,
    private readonly imports: DncImportService,
    private readonly exports: DncExportService,
  ) {}

  @Post('add')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: 'Add the number of a call to the do-not-call list',
    description:
      'The entry links the organization, the batch, the call record and its phone log, and keeps ' +
      "the call's recording URL and transcript. In the same transaction every pending call of " +
      'the number in the active or paused batches of the organization becomes `do_not_call`, so ' +
      'it is never dialed. Afterwards the organization admins are e-mailed (one message to all ' +
      'of them; logged instead when SMTP_URL is unset); a mail failure does not fail the request. ' +
      '400: missing or invalid fields, a phoneNumber other than the call record’s, or a number ' +
      'already listed. 404: batch (also a deleted one), its user, or the call of requestUUID in ' +
      `that batch not found. ${BATCH_ACCESS}`,
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retry-safe add: the same key and body returns the first answer for 24 hours (instead of ' +
      '400 for a number already listed); another body answers 422, and 409 while the first ' +
      'request is still running. The answer is stored in the same transaction as the entry.',
  })
  @ApiEnvelope({ message: 'Number added to the do-not-call list', errorMessage: true })
  @ApiErrors(400, 404, 409, 422, 500)
  addDncEntry(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: AddDncDto,
    @Headers('Idempotency-Key') key?: string,
  ): Promise<void> {
    return this.dnc.add(principal, dto, key);
  }

  @Get()
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: 'List the do-not-call entries',
    description: 'Newest first. page defaults to 1, limit to 10 (at most 100).',
  })
  @ApiEnvelope({ message: 'Do-not-call entries fetched', type: DncListDto, errorMessage: true })
  @ApiErrors(400)
  listDncEntries(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListDncQuery,
  ): Promise<DncListDto> {
    return this.dnc.list(principal.organizationId, query);
  }

  @Post('import')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: 'Import numbers into the do-not-call list from a CSV or JSON file',
    description:
      'Every row is accounted for: added, already listed (on the list before, or earlier in ' +
      'the file: importing the same file twice changes nothing the second time), or rejected ' +
      'with its row number and reason. The upload is received whole and read through once ' +
      'before anything is stored: a malformed file, a CSV header without a phoneNumber column ' +
      'or a file with no entries answers 400 and changes nothing. Then rows are stored in ' +
      `chunks of ${DNC_IMPORT_CHUNK_ROWS.toLocaleString('en-US')}, each in its own transaction ` +
      "under the organization's dialing lock (as DNC add): a claim in progress finishes " +
      'first and every later claim sees the chunk, and dialing goes on between chunks. Each ' +
      'chunk also makes the pending calls of its new numbers in active or paused batches ' +
      '`do_not_call`. If the request fails halfway, the chunks before the failure stay ' +
      'imported; sending the file again is safe. No e-mail is sent for an import.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: IMPORT_FILE_DESCRIPTION },
      },
    },
  })
  @ApiEnvelope({
    status: 201,
    message: 'Do-not-call list imported',
    type: DncImportReportDto,
    errorMessage: true,
  })
  @ApiErrors(400, 413, 415)
  importDncList(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<DncImportReportDto> {
    return this.imports.importUpload(principal, request);
  }

  @Get('export/csv')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: "Download the organization's whole do-not-call list as CSV",
    description:
      'Streamed, oldest entry first, as an attachment (dnc-list.csv). CRLF lines, RFC 4180 ' +
      'quoting, no BOM; columns phoneNumber, type, source, createdAt, _id, batchId, ' +
      'callRecordId, requestUUID, recordingUrl, transcript (empty for null); against formula ' +
      "injection a cell starting with = + - @, tab or CR gets a leading ' (numbers too: " +
      "'+14155551234, which the import reads back). A failure mid-stream cuts the download " +
      'short, never a file that looks complete. The file imports back as it is.',
  })
  @ApiOkResponse({
    description: 'Streamed text/csv',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  exportDncCsv(@CurrentPrincipal() principal: Principal): StreamableFile {
    return this.exports.export(principal.organizationId, 'csv');
  }

  @Get('export/json')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: "Download the organization's whole do-not-call list as JSON",
    description:
      'The common envelope, its data every entry (as the list shows them) oldest first, ' +
      'streamed as an attachment (dnc-list.json) however long the list. A failure mid-stream ' +
      'cuts the body short: it then does not parse. The file imports back as it is.',
  })
  @ApiExtraModels(DncEntryDto)
  @ApiOkResponse({
    description: DNC_EXPORTED,
    schema: {
      type: 'object',
      required: ['message', 'status', 'code', 'errorMessage', 'data'],
      properties: {
        message: { type: 'string', example: DNC_EXPORTED },
        status: { type: 'boolean', example: true },
        code: { type: 'integer', example: 200 },
        errorMessage: { type: 'string', example: '' },
        data: { type: 'array', items: { $ref: getSchemaPath(DncEntryDto) } },
      },
    },
  })
  exportDncJson(@CurrentPrincipal() principal: Principal): StreamableFile {
    return this.exports.export(principal.organizationId, 'json');
  }

  @Get('check')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: 'Tell whether a number is on the do-not-call list',
    description:
      'The number is normalized to E.164 first, so any written form of it finds its entry. ' +
      'With `include=entry` a listed number also gets its whole entry in `data.entry`.',
  })
  @ApiEnvelope({ message: 'Do-not-call status fetched', type: DncCheckDto, errorMessage: true })
  @ApiErrors(400)
  checkDncNumber(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CheckDncQuery,
  ): Promise<DncCheckDto> {
    return this.dnc.check(principal.organizationId, query);
  }

  @Delete(':id')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({
    summary: 'Remove an entry from the do-not-call list',
    description:
      'The number may be imported and dialed again in the future. Call records already marked ' +
      '`do_not_call` stay so: removal does not put them back in any queue.',
  })
  @ApiEnvelope({ message: 'Number removed from the do-not-call list', errorMessage: true })
  @ApiDeleteErrors()
  deleteDncEntry(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<void> {
    return this.dnc.remove(principal.organizationId, id);
  }
}
