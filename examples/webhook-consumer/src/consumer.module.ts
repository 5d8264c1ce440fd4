import { type DynamicModule, Module } from '@nestjs/common';
import { SwitchboardWebhooksModule, type SwitchboardWebhooksOptions } from '@app/webhooks';
import { EventsController } from './events.controller';
import { ReceivedEvents } from './received-events';

@Module({})
export class ConsumerModule {
  static forRoot(webhooks: SwitchboardWebhooksOptions): DynamicModule {
    return {
      module: ConsumerModule,
      imports: [SwitchboardWebhooksModule.forRoot(webhooks)],
      controllers: [EventsController],
      providers: [ReceivedEvents],
    };
  }
}
