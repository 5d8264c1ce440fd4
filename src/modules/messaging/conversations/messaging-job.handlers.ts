import {
  type HandlesJob,
  type JobContext,
  JobHandler,
  JobName,
  type JobPayloads,
} from '../../../queue';
import { ConversationReplyWorker } from './conversation-reply-worker';
import { MessagingEventsService } from './messaging-events.service';
import { OutgoingMessageSender } from './outgoing-message.sender';

/** A stored webhook delivery: its messages and statuses. */
@JobHandler(JobName.ProcessMessagingEvent)
export class ProcessMessagingEventHandler implements HandlesJob<JobName.ProcessMessagingEvent> {
  constructor(private readonly events: MessagingEventsService) {}

  handle({ eventId }: JobPayloads[JobName.ProcessMessagingEvent]): Promise<void> {
    return this.events.process(eventId);
  }
}

/** The agent's answer to an incoming message's conversation (with whatever else is pending). */
@JobHandler(JobName.ReplyToMessage)
export class ReplyToMessageHandler implements HandlesJob<JobName.ReplyToMessage> {
  constructor(private readonly worker: ConversationReplyWorker) {}

  handle(
    { organizationId, messageId }: JobPayloads[JobName.ReplyToMessage],
    { attempt }: JobContext,
  ): Promise<void> {
    return this.worker.reply(organizationId, messageId, attempt);
  }
}

/** Another try of a message the platform could not take. */
@JobHandler(JobName.SendMessage)
export class SendMessageHandler implements HandlesJob<JobName.SendMessage> {
  constructor(private readonly sender: OutgoingMessageSender) {}

  handle(
    { organizationId, messageId }: JobPayloads[JobName.SendMessage],
    { attempt }: JobContext,
  ): Promise<void> {
    return this.sender.retry(organizationId, messageId, attempt);
  }
}
