import { ServiceUnavailableException } from '@nestjs/common';

/**
 * 503 for new work reaching a draining process (a provider's answer, a media stream): a load
 * balancer or the provider's fallback URL takes it to a ready process. The exception filter adds
 * the Retry-After header.
 */
export class DrainingException extends ServiceUnavailableException {
  readonly retryAfterSeconds = 5;

  constructor() {
    super('This process is shutting down and takes no new calls; try another');
  }
}
