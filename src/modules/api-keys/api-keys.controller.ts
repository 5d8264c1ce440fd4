import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@ApiTags('API keys')
@Controller('api/api-keys')
@Authenticated({ admin: true })
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiEnvelope({ status: 201, message: 'API key created', type: CreatedApiKeyDto })
  @ApiErrors(400)
  createApiKey(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyDto> {
    return this.apiKeys.create(principal, dto);
  }

  @Get()
  @ApiEnvelope({ message: 'API keys fetched', type: [ApiKeyDto] })
  listApiKeys(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return this.apiKeys.list(principal.organizationId);
  }

  @Delete(':id')
  @ApiEnvelope({ message: 'API key revoked' })
  @ApiDeleteErrors()
  revokeApiKey(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<void> {
    return this.apiKeys.revoke(principal.organizationId, id);
  }
}
