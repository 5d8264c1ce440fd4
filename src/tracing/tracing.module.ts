import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './start-tracing';

class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}

/** Flushes the spans still buffered when the application closes (a no-op without tracing). */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
