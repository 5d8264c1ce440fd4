import {
  ForbiddenException,
  Injectable,
  type NestMiddleware,
  UnauthorizedException,
} from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, Response } from 'express';
import { type Principal, Authenticated } from '../../auth/access';
import { AccessGuard } from '../../auth/access.guard';
import { API_KEY_HEADER } from '../../auth/api-key.strategy';
import { type AppConfig, InjectConfig } from '../../config';

/** The board's access policy, where AccessGuard reads policies: on a handler of a class. */
class QueueBoardRoute {
  @Authenticated({ admin: true })
  open(this: void): void {
    // never called: only its metadata is read
  }
}

const BROWSER_CHALLENGE = 'Basic realm="Switchboard queue board", charset="UTF-8"';

/**
 * A browser cannot add `Authorization: Bearer` or `x-api-key` to the page and the board's own
 * requests, but it sends Basic credentials once asked: an API key as the password (any user
 * name) stands for `x-api-key`.
 */
function apiKeyFromBasic(request: Request): void {
  const authorization = request.headers.authorization;
  if (!authorization?.startsWith('Basic ') || request.headers[API_KEY_HEADER]) return;
  const decoded = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return;
  request.headers[API_KEY_HEADER] = decoded.slice(separator + 1);
  delete request.headers.authorization;
}

/**
 * Who may open the queue board: the global AccessGuard with an admin-only policy (bearer token
 * or API key, as every route), and only admins of an operator organization
 * (QUEUE_BOARD_ORGANIZATIONS): the board shows and acts on every tenant's jobs.
 */
@Injectable()
export class QueueBoardAccess implements NestMiddleware {
  constructor(
    private readonly guard: AccessGuard,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    apiKeyFromBasic(request);
    try {
      await this.guard.canActivate(
        new ExecutionContextHost(
          [request, response, next],
          QueueBoardRoute,
          QueueBoardRoute.prototype.open,
        ),
      );
    } catch (error) {
      if (error instanceof UnauthorizedException) {
        response.setHeader('WWW-Authenticate', BROWSER_CHALLENGE);
      }
      throw error;
    }
    const { organizationId } = (request as Request & { user: Principal }).user;
    if (!this.config.queueBoard.organizationIds.includes(organizationId)) {
      throw new ForbiddenException(
        "The queue board is open to the operator organization's admins only",
      );
    }
    next();
  }
}
