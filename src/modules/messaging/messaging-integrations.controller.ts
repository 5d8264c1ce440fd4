import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import {
  CreateMessagingIntegrationDto,
  MessagingIntegrationDto,
  MessagingWebhookUrlDto,
  UpdateMessagingIntegrationDto,
  UpdateMessagingWebhookUrlDto,
} from './dto/messaging-integration.dto';
import {
  MessagingNumberValidityDto,
  ValidateMessagingNumberDto,
} from './dto/validate-messaging-number.dto';
import { MessagingIntegrationsService } from './messaging-integrations.service';
import { MessagingNumbersService } from './messaging-numbers.service';
import { ParsePlatformIdPipe } from './parse-platform-id.pipe';

export const PHONE_NUMBER_ID = {
  name: 'phoneNumberId',
  description: 'Id of a connected business number on the messaging platform (digits)',
};
const PLATFORM_ERRORS =
  '502: the platform is down, timed out or throttled us. Tokens are stored encrypted and ' +
  'never returned.';

@ApiTags('Messaging')
@Controller('api/messaging')
export class MessagingIntegrationsController {
  constructor(
    private readonly integrations: MessagingIntegrationsService,
    private readonly numbers: MessagingNumbersService,
  ) {}

  @Post('messaging-integration')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Connect a business number of the messaging platform',
    description:
      'Checks at the platform that the access token is valid and that the number belongs to ' +
      'the business account, subscribes our app to the business account, then saves. ' +
      '400: invalid fields, a token the platform refuses or that may not manage the number, ' +
      'or a number of another business account; 404: no such number or business account at ' +
      'the platform; 409: the number is already connected (here or to another organization: ' +
      `the platform sends a number's events to one place). ${PLATFORM_ERRORS}`,
  })
  @ApiEnvelope({
    status: 201,
    message: 'Messaging integration created',
    type: MessagingIntegrationDto,
  })
  @ApiErrors(400, 404, 409, 502)
  createMessagingIntegration(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateMessagingIntegrationDto,
  ): Promise<MessagingIntegrationDto> {
    return this.integrations.create(principal.organizationId, dto);
  }

  @Get('messaging-number')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'List the connected business numbers',
    description: 'Oldest first. Access tokens are never returned.',
  })
  @ApiEnvelope({ message: 'Messaging numbers fetched', type: [MessagingIntegrationDto] })
  listMessagingNumbers(
    @CurrentPrincipal() principal: Principal,
  ): Promise<MessagingIntegrationDto[]> {
    return this.integrations.list(principal.organizationId);
  }

  @Put('update-integration/:phoneNumberId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Update a connected business number',
    description:
      'Only the fields sent change. A new accessToken or businessAccountId is checked at the ' +
      'platform first (and our app subscribed to the business account); success sets status ' +
      'back to connected. 400: invalid body or phoneNumberId, or a new token the platform ' +
      'refuses; 404: no such connected number; 409: the number does not belong to the ' +
      '(new) business account at the platform, or the platform refused the stored token. ' +
      PLATFORM_ERRORS,
  })
  @ApiParam(PHONE_NUMBER_ID)
  @ApiEnvelope({ message: 'Messaging integration updated', type: MessagingIntegrationDto })
  @ApiErrors(400, 404, 409, 502)
  updateMessagingIntegration(
    @CurrentPrincipal() principal: Principal,
    @Param('phoneNumberId', ParsePlatformIdPipe) phoneNumberId: string,
    @Body() dto: UpdateMessagingIntegrationDto,
  ): Promise<MessagingIntegrationDto> {
    return this.integrations.update(principal.organizationId, phoneNumberId, dto);
  }

  @Put('update-webhook-url')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Set where a business number’s incoming messages and statuses go',
    description:
      'Applied at the platform through the per-number webhook override (with ' +
      'MESSAGING_VERIFY_TOKEN for its verify handshake) and read back. The URL must be public ' +
      'https: no private, loopback, link-local or metadata address. 400: invalid body; 404: no ' +
      'such connected number; 409: the platform refused the stored token; 422: the URL is ' +
      'not public https; 503: MESSAGING_VERIFY_TOKEN is not configured. ' +
      PLATFORM_ERRORS,
  })
  @ApiEnvelope({ message: 'Messaging webhook URL updated', type: MessagingWebhookUrlDto })
  @ApiErrors(400, 404, 409, 422, 502, 503)
  updateMessagingWebhookUrl(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: UpdateMessagingWebhookUrlDto,
  ): Promise<MessagingWebhookUrlDto> {
    return this.integrations.updateWebhookUrl(principal.organizationId, dto);
  }

  @Post('validate-messaging-number')
  @HttpCode(200)
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Tell whether a number can receive messages',
    description:
      'The platform offers no check of whether a number uses it, so isValid is true when the ' +
      'number is well formed, dialable and a mobile line by its country’s numbering plan ' +
      '(North American numbers do not tell fixed from mobile and count as mobile), and the ' +
      'platform has not reported it undeliverable (error 131026) to this organization. A valid ' +
      'answer is no guarantee of delivery. Creates nothing. 400: malformed number (not ' +
      'digits with the country code). A number that does not exist answers isValid false, ' +
      'never 404.',
  })
  @ApiEnvelope({ message: 'Messaging number validated', type: MessagingNumberValidityDto })
  @ApiErrors(400)
  validateMessagingNumber(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ValidateMessagingNumberDto,
  ): Promise<MessagingNumberValidityDto> {
    return this.numbers.validate(principal.organizationId, dto);
  }
}
