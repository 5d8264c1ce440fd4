import { Body, Controller, Delete, Get, Param, ParseBoolPipe, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope, ApiRawResponse } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { AddPhoneDto } from './dto/add-phone.dto';
import {
  DeletePhoneResponseDto,
  PhoneNumberDto,
  PhoneNumberListItemDto,
  PhoneVerificationDto,
} from './dto/phone.dto';
import { PhonesService } from './phones.service';

@ApiTags('Phone numbers')
@Controller('api/call')
export class PhonesController {
  constructor(private readonly phones: PhonesService) {}

  @Post('add-phone')
  @Authenticated({ permission: 'phones' })
  @ApiEnvelope({
    status: 201,
    message: 'Phone number added',
    type: PhoneNumberDto,
    errorMessage: true,
  })
  @ApiOperation({
    summary: 'Add a phone number',
    description:
      'Validates the credentials and the number at the provider, then saves the number and wires ' +
      "the provider's callbacks to it; a failure at any step leaves nothing saved or wired. " +
      'A provider that is down, times out or fails answers 502 with its reason; a provider ' +
      'refusing the webhook set-up answers 500 (`Webhook set-up failure`). provider_three ' +
      "callbacks are verified with the Telnyx account's public key: `publicKey` when given, else " +
      "the server's PROVIDER_THREE_PUBLIC_KEY; outside embedded mode a provider_three number " +
      'needs one of them (400 otherwise, before Telnyx is called).',
  })
  @ApiErrors(400, 404, 500, 502)
  addPhone(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: AddPhoneDto,
  ): Promise<PhoneNumberDto> {
    return this.phones.add(principal.organizationId, dto);
  }

  @Get('phones')
  @Authenticated({ permission: 'phones' })
  @ApiEnvelope({
    message: 'Phone numbers fetched',
    type: [PhoneNumberListItemDto],
    errorMessage: true,
  })
  listPhones(@CurrentPrincipal() principal: Principal): Promise<PhoneNumberListItemDto[]> {
    return this.phones.list(principal.organizationId);
  }

  @Post('phones/:phoneId/verify')
  @Authenticated({ permission: 'phones' })
  @ApiQuery({
    name: 'repair',
    required: false,
    type: Boolean,
    description: 'Re-apply the webhook wiring on drift',
  })
  @ApiEnvelope({ message: 'Phone number verified', type: PhoneVerificationDto, errorMessage: true })
  @ApiErrors(400, 404, 502)
  verifyPhone(
    @CurrentPrincipal() principal: Principal,
    @Param('phoneId', ParseObjectIdPipe) phoneId: string,
    @Query('repair', new ParseBoolPipe({ optional: true })) repair?: boolean,
  ): Promise<PhoneVerificationDto> {
    return this.phones.verify(principal.organizationId, phoneId, repair ?? false);
  }

  @Delete('delete-phone/:phoneId')
  @Authenticated({ admin: true })
  @ApiRawResponse({ type: DeletePhoneResponseDto, description: 'Removed from the workspace' })
  @ApiDeleteErrors()
  deletePhone(
    @CurrentPrincipal() principal: Principal,
    @Param('phoneId', ParseObjectIdPipe) phoneId: string,
  ): Promise<DeletePhoneResponseDto> {
    return this.phones.delete(principal.organizationId, phoneId);
  }
}
