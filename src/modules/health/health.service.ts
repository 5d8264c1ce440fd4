import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../../database';
import { withTimeout } from '../../common/with-timeout';
import { InjectRedis } from '../../redis/redis.module';
import { ProcessDrain } from '../../lifecycle/process-drain';

const CHECK_TIMEOUT_MS = 2_000;

export type ComponentState = 'up' | 'down' | 'not configured';

export interface Readiness {
  database: ComponentState;
  redis: ComponentState;
}

@Injectable()
export class HealthService {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly database: DatabaseConnection,
    @InjectRedis() private readonly redis: Redis | null,
    private readonly drain: ProcessDrain,
  ) {}

  /**
   * Ready when the database (and Redis, when configured) answer and the process is not draining
   * (a load balancer then sends it nothing new); 503 naming why not.
   */
  async readiness(): Promise<Readiness> {
    if (this.drain.draining) throw new ServiceUnavailableException('Not ready: draining');
    const [database, redis] = await Promise.all([
      probe(() => this.database.ping(CHECK_TIMEOUT_MS)),
      this.redis
        ? probe(() => withTimeout(this.redis!.ping(), CHECK_TIMEOUT_MS).then(() => undefined))
        : Promise.resolve<ComponentState>('not configured'),
    ]);
    const down = Object.entries({ database, redis }).filter(([, state]) => state === 'down');
    if (down.length > 0) {
      throw new ServiceUnavailableException(
        `Not ready: ${down.map(([name]) => name).join(', ')} unreachable`,
      );
    }
    return { database, redis };
  }
}

async function probe(check: () => Promise<void>): Promise<ComponentState> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}
