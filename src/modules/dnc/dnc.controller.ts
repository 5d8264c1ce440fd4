import { Body, Controller, Delete, Get, Headers, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { BATCH_ACCESS } from '../batches/batch-access.service';
import { DncService } from './dnc.service';
import { AddDncDto } from './dto/add-dnc.dto';
import { DncCheckDto, DncListDto } from './dto/dnc-entry.dto';
import { CheckDncQuery, ListDncQuery } from './dto/dnc-queries';

@ApiTags('Do-not-call list')
@Controller('api/dnc')
export class DncController {
  constructor(private readonly dnc: DncService) {}

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

  @Get('check')
  @Authenticated({ permission: 'dnc' })
  @ApiOperation({ summary: 'Tell whether a number is on the do-not-call list' })
  @ApiEnvelope({ message: 'Do-not-call status fetched', type: DncCheckDto, errorMessage: true })
  @ApiErrors(400)
  checkDncNumber(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CheckDncQuery,
  ): Promise<DncCheckDto> {
    return this.dnc.check(principal.organizationId, query.phoneNumber);
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
