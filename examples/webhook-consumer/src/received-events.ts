import { Injectable } from '@nestjs/common';
import type { WebhookEvent } from '@app/webhooks';

export interface ReceivedEvent {
  /** `webhook-id`: the same on every retry of one delivery. */
  id: string;
  event: WebhookEvent;
  /** A line about the event, read from its typed payload. */
  summary: string;
}

/** One line per event type: the payload is typed by `event.type` (no casts). */
export function summarize(event: WebhookEvent): string {
  switch (event.type) {
    case 'call.started':
      return `dialing ${event.data.to_number} from ${event.data.from_number} (attempt ${event.data.attempt})`;
    case 'call.answered':
      return `${event.data.to_number} answered (${event.data.answered_by})`;
    case 'call.completed':
      return `${event.data.to_number}: ${event.data.duration_seconds} s, ended by ${event.data.ended_by}`;
    case 'call.failed':
      return `${event.data.to_number} failed: ${event.data.failure_reason}${event.data.will_retry ? ', will retry' : ''}`;
    case 'call.transferred':
      return `${event.data.to_number} transferred to ${event.data.transfer_to}`;
    case 'call.recording.available':
      return `recording of ${event.data.call_id}: ${event.data.recording_url}`;
    case 'call.summary.generated':
      return `summary of ${event.data.call_id}: ${event.data.summary}`;
    case 'call.analysis.completed':
      return `analysis of ${event.data.call_id}: ${event.data.sentiment}`;
    case 'webhook.test':
      return event.data.message;
  }
}

/**
 * The verified events, in memory, in arrival order. Deliveries are retried until answered 2xx,
 * so the same `webhook-id` may come twice: it is kept once.
 */
@Injectable()
export class ReceivedEvents {
  private readonly byId = new Map<string, ReceivedEvent>();

  add(id: string, event: WebhookEvent): boolean {
    if (this.byId.has(id)) return false;
    this.byId.set(id, { id, event, summary: summarize(event) });
    return true;
  }

  list(): ReceivedEvent[] {
    return [...this.byId.values()];
  }
}
