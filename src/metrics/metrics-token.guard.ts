import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config';
import { safeEqual } from '../common/safe-equal';

/**
 * `/metrics` on the API port answers only `Authorization: Bearer <METRICS_TOKEN>`; with no
 * token configured it does not exist (404), so an unset token never means an open endpoint.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const token = this.config.metrics.token;
    if (token === undefined) throw new NotFoundException('Cannot GET /metrics');
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const [scheme, presented] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !presented || !safeEqual(presented, token)) {
      throw new UnauthorizedException('A valid metrics token is required');
    }
    return true;
  }
}
