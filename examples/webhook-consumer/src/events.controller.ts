import { Controller, Get, Headers, HttpCode, Post, UseGuards } from '@nestjs/common';
import { SwitchboardWebhookGuard, WebhookEvent } from '@app/webhooks';
import { type ReceivedEvent, ReceivedEvents } from './received-events';

@Controller('switchboard/events')
export class EventsController {
  constructor(private readonly received: ReceivedEvents) {}

  /** Switchboard's deliveries: anything not signed with our secret gets 401 from the guard. */
  @Post()
  @HttpCode(204)
  @UseGuards(SwitchboardWebhookGuard)
  receive(@Headers('webhook-id') id: string, @WebhookEvent() event: WebhookEvent): void {
    this.received.add(id, event);
  }

  /** What arrived (an example: a real service would not publish its events). */
  @Get()
  list(): ReceivedEvent[] {
    return this.received.list();
  }
}
