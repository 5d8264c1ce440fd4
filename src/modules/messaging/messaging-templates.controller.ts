import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { MessagingTemplateDto, TemplateVariablesDto } from './dto/messaging-template.dto';
import { PHONE_NUMBER_ID } from './messaging-integrations.controller';
import { MessagingTemplatesService } from './messaging-templates.service';
import { ParsePlatformIdPipe } from './parse-platform-id.pipe';

const CACHE =
  'Templates are synchronised from the platform (every page) when the copy is older than ' +
  'MESSAGING_TEMPLATE_CACHE_SECONDS (default 900: 15 minutes); while the platform cannot be ' +
  'reached or refuses the token, the last synchronised copy is served.';

@ApiTags('Messaging')
@Controller('api/messaging')
export class MessagingTemplatesController {
  constructor(private readonly templates: MessagingTemplatesService) {}

  @Get('get-all-templates')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'List the templates of every connected business account',
    description: `Each template once, in the platform's order per account. ${CACHE}`,
  })
  @ApiEnvelope({ message: 'Templates fetched', type: [MessagingTemplateDto] })
  listAllMessagingTemplates(
    @CurrentPrincipal() principal: Principal,
  ): Promise<MessagingTemplateDto[]> {
    return this.templates.listAll(principal.organizationId);
  }

  @Get('get-templates/:phoneNumberId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'List the templates of one business number',
    description:
      `The templates of the number's business account. ${CACHE} 400: malformed ` +
      'phoneNumberId; 404: no such connected number; 409 or 502: never synchronised and the ' +
      'platform refused the stored token or is unavailable.',
  })
  @ApiParam(PHONE_NUMBER_ID)
  @ApiEnvelope({ message: 'Templates fetched', type: [MessagingTemplateDto] })
  @ApiErrors(400, 404, 409, 502)
  listMessagingTemplates(
    @CurrentPrincipal() principal: Principal,
    @Param('phoneNumberId', ParsePlatformIdPipe) phoneNumberId: string,
  ): Promise<MessagingTemplateDto[]> {
    return this.templates.listForNumber(principal.organizationId, phoneNumberId);
  }

  @Get('get-variable-by-template-id/:phoneNumberId/:templateId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'List the variables a template needs',
    description:
      'Positional `{{1}}` and named `{{first_name}}` variables of the header, the body and URL ' +
      'buttons, in order, each with the example the template was registered with. ' +
      `${CACHE} 400: malformed ids; 404: no such connected number or template.`,
  })
  @ApiParam(PHONE_NUMBER_ID)
  @ApiParam({ name: 'templateId', description: 'The platform’s template id (digits)' })
  @ApiEnvelope({ message: 'Template variables fetched', type: TemplateVariablesDto })
  @ApiErrors(400, 404, 409, 502)
  getMessagingTemplateVariables(
    @CurrentPrincipal() principal: Principal,
    @Param('phoneNumberId', ParsePlatformIdPipe) phoneNumberId: string,
    @Param('templateId', ParsePlatformIdPipe) templateId: string,
  ): Promise<TemplateVariablesDto> {
    return this.templates.variables(principal.organizationId, phoneNumberId, templateId);
  }
}
