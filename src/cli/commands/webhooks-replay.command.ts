import { Command, Option } from 'nest-commander';
import { WebhookDeliveriesService } from '../../modules/webhook-deliveries/webhook-deliveries.service';
import { objectIdArgument, timeOption } from '../arguments';
import { UsageError } from '../exit-codes';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

interface ReplayOptions {
  since?: string;
  until?: string;
  webhook?: string;
  organization?: string;
}

@Command({
  name: 'webhooks:replay',
  description:
    'Send again every webhook delivery that ended failed since a time (trigger `recover`): ' +
    'of one webhook, of one organization, or of every webhook',
})
export class WebhooksReplayCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute(_: string[], options: ReplayOptions): Promise<CommandResult> {
    if (options.webhook && options.organization) {
      throw new UsageError('--webhook and --organization exclude each other');
    }
    const since = timeOption('--since', options.since);
    if (!since) throw new UsageError('--since is required');
    const until = timeOption('--until', options.until);
    const replayed = await (
      await this.switchboard.get(WebhookDeliveriesService)
    ).replayFailed({
      since,
      until,
      webhookId: options.webhook && objectIdArgument('--webhook', options.webhook),
      organizationId:
        options.organization && objectIdArgument('--organization', options.organization),
    });
    return {
      json: replayed,
      text: [
        ...replayed.webhooks.map(
          (webhook) =>
            `Webhook ${webhook.webhookId} (organization ${webhook.organizationId}): ` +
            `${webhook.due} due again, ${webhook.queued} queued`,
        ),
        `${replayed.due} failed deliveries due again, ${replayed.queued} queued` +
          (replayed.queued < replayed.due ? ' (the rest are sent by the sweeper)' : ''),
      ],
    };
  }

  @Option({ flags: '--since <time>', description: 'failed at or after (ISO 8601)', required: true })
  parseSince(value: string): string {
    return value;
  }

  @Option({ flags: '--until <time>', description: 'failed before (ISO 8601)' })
  parseUntil(value: string): string {
    return value;
  }

  @Option({ flags: '--webhook <id>', description: 'only this webhook' })
  parseWebhook(value: string): string {
    return value;
  }

  @Option({ flags: '--organization <id>', description: "only this organization's webhooks" })
  parseOrganization(value: string): string {
    return value;
  }
}
