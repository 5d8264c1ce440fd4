import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiKeysService } from '../modules/api-keys/api-keys.service';
import type { Principal } from './access';

export const API_KEY_STRATEGY = 'api-key';
export const API_KEY_HEADER = 'x-api-key';

@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, API_KEY_STRATEGY) {
  constructor(private readonly apiKeys: ApiKeysService) {
    super({ header: API_KEY_HEADER, prefix: '' }, false);
  }

  async validate(key: string): Promise<Principal> {
    const principal = await this.apiKeys.authenticate(key);
    if (!principal) throw new UnauthorizedException('Invalid or revoked API key');
    return principal;
  }
}
