import { HttpException, HttpStatus } from '@nestjs/common';

/** 429; the exception filter adds the Retry-After header. */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
