import { Module } from '@nestjs/common';
import { ApiKeyUsedHandler } from './api-key-used.handler';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyUsedHandler],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
