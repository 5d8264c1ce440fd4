import { type DynamicModule, Module } from '@nestjs/common';
import type { BullBoardModuleOptions } from '@bull-board/nestjs';
import type { NextFunction, Request, Response } from 'express';
import { AccessGuard } from '../../auth/access.guard';
import type { AppConfig } from '../../config';
import { JOB_LANES, type JobLane } from '../../queue/jobs';
import { QueueBoardAccess } from './queue-board.access';

@Module({ providers: [AccessGuard, QueueBoardAccess], exports: [QueueBoardAccess] })
class QueueBoardAccessModule {}

/** Where the board is served; outside /api and outside openapi.json (it is a page, not an API). */
export const QUEUE_BOARD_ROUTE = '/admin/queues';

/**
 * Bull Board over the BullMQ queues (one per lane of JOB_LANES) at /admin/queues, for the
 * operator organization's admins (QueueBoardAccess). Absent (404) in embedded mode, where jobs
 * run in the process and no queue exists to show, and when QUEUE_BOARD_ORGANIZATIONS names no
 * organization.
 */
@Module({})
export class QueueBoardModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.redis.url || config.queueBoard.organizationIds.length === 0) {
      return { module: QueueBoardModule };
    }
    // Required only when the board is on: Bull Board (its UI server and adapters) would
    // otherwise load on every start for nothing.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { BullMQAdapter } =
      require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
    const { ExpressAdapter } =
      require('@bull-board/express') as typeof import('@bull-board/express');
    const { BullBoardModule } =
      require('@bull-board/nestjs') as typeof import('@bull-board/nestjs');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const lanes = Object.keys(JOB_LANES) as JobLane[];
    return {
      module: QueueBoardModule,
      imports: [
        BullBoardModule.forRootAsync({
          imports: [QueueBoardAccessModule],
          inject: [QueueBoardAccess],
          // A function, not the class: Nest would build a middleware class in Bull Board's module.
          useFactory: (access: QueueBoardAccess) => ({
            route: QUEUE_BOARD_ROUTE,
            // @bull-board/express 9.10.1 types against its own @bull-board/api 9.10.1, the other
            // packages are 9.10.2: same shape at run time, distinct declarations.
            adapter: ExpressAdapter as unknown as BullBoardModuleOptions['adapter'],
            middleware: (request: Request, response: Response, next: NextFunction) =>
              access.use(request, response, next),
            boardOptions: { uiConfig: { boardTitle: 'Switchboard queues' } },
          }),
        }),
        BullBoardModule.forFeature(...lanes.map((name) => ({ name, adapter: BullMQAdapter }))),
      ],
    };
  }
}
