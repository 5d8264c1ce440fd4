import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { ErrorEnvelope } from '@app/contracts';
import type { Request, Response } from 'express';
import { clientFaultMessage, isStatementTimeout, sqlStateOf } from '../database/errors';
import { describeUnknown } from './describe-error';
import { ValidationFailedException } from './validation';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** Errors raised by Express body parsing, before Nest routing: they carry `type` and `status`. */
interface BodyParserError {
  type: string;
  status: number;
  expose: boolean;
}

const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON body',
  'entity.too.large': 'Request body too large',
  'entity.verify.failed': 'Request body rejected',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
  'request.aborted': 'Request aborted',
  'request.size.invalid': 'Request size did not match Content-Length',
};

const STATEMENT_TIMEOUT_MESSAGE =
  'The search took too long; narrow it (a shorter or more specific search or filter) and try again';

/** Renders every error in the common envelope; internals never reach the client. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request & { id?: string }>();
    const response = host.switchToHttp().getResponse<Response>();
    const body = this.toEnvelope(exception, request);
    if (response.headersSent) return;
    // A 429, or a 503 of a draining process: when to come back.
    if (exception instanceof HttpException && 'retryAfterSeconds' in exception) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    response.status(body.code).json(body);
  }

  private toEnvelope(exception: unknown, request: Request & { id?: string }): ErrorEnvelope {
    // Express body parsing fails before routing; Nest wraps those errors with the original as cause.
    const parserError = isBodyParserError(exception)
      ? exception
      : exception instanceof HttpException && isBodyParserError(exception.cause)
        ? exception.cause
        : undefined;
    if (parserError) {
      const message = BODY_PARSER_MESSAGES[parserError.type] ?? 'Invalid request body';
      return envelope(parserError.status, titleOf(parserError.status), message);
    }
    if (exception instanceof ValidationFailedException) {
      return {
        ...envelope(400, 'Validation failed', exception.message),
        errors: exception.fieldErrors,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) return envelope(status, titleOf(status), detailOf(exception));
      this.logger.error({ requestId: request.id, status, error: exception.name }, 'Server error');
      return { ...envelope(status, titleOf(status), detailOf(exception)), requestId: request.id };
    }
    // The statement timeout ended a query (a search too broad or too costly for the data).
    if (isStatementTimeout(exception)) {
      this.logger.warn({ requestId: request.id, path: request.path }, 'Statement timeout');
      return envelope(408, TITLES[408], STATEMENT_TIMEOUT_MESSAGE);
    }
    // A value the database refused (a DTO should have): the client's fault, logged to be fixed.
    const clientFault = clientFaultMessage(exception);
    if (clientFault) {
      const sqlState = sqlStateOf(exception);
      this.logger.warn({ requestId: request.id, path: request.path, sqlState }, 'Refused value');
      return envelope(400, TITLES[400], clientFault);
    }
    // Unknown errors: log where and what class, never the message (it can hold SQL or data),
    // and answer with a correlation id only.
    this.logger.error({ requestId: request.id, ...describeUnknown(exception) }, 'Unhandled error');
    return {
      ...envelope(HttpStatus.INTERNAL_SERVER_ERROR, TITLES[500], 'An unexpected error occurred'),
      requestId: request.id,
    };
  }
}

function envelope(code: number, message: string, errorMessage: string): ErrorEnvelope {
  return { message, status: false, code, errorMessage };
}

function titleOf(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server error' : 'Request error');
}

function detailOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

function isBodyParserError(value: unknown): value is BodyParserError {
  const candidate = value as Partial<BodyParserError> | null;
  return (
    typeof candidate?.type === 'string' &&
    typeof candidate.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500
  );
}
