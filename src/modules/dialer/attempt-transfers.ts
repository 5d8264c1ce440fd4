import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { PhoneLogsRepository } from '../call-records/phone-logs.repository';
import { AttemptEvents } from './attempt-events';
import type { Attempt } from './attempts.repository';

/**
 * A transfer's life on the attempt's row, each step inside the caller's transaction on the
 * locked attempt: asked (the destination and the model's reason written before the provider is
 * asked, so the provider can fetch its <Dial>), answered (the new party picked up: transferredAt
 * and call.transferred, once), or not answered (asked for nothing: the destination is taken off
 * again). Whoever hears the outcome first — the provider's callback or the session waiting on
 * it — records it; the second finds it done.
 */
@Injectable()
export class AttemptTransfers {
  constructor(
    private readonly logs: PhoneLogsRepository,
    private readonly events: AttemptEvents,
    private readonly clock: Clock,
  ) {}

  /** Reserves the transfer on a live attempt with none under way; false when it is not one. */
  async ask(
    attempt: Attempt,
    ask: { to: string; reason: string | null; briefing: string | null },
  ): Promise<boolean> {
    const { log } = attempt;
    if (log.callStatus !== 'in-progress' || log.transferredTo) return false;
    await this.logs.update(log, {
      transferredTo: ask.to,
      transferReason: ask.reason,
      transferBriefing: ask.briefing,
    });
    return true;
  }

  /** The new party answered: the call is transferred (call.transferred), once. */
  async answered(attempt: Attempt): Promise<void> {
    const { log } = attempt;
    if (!log.transferredTo || log.transferredAt) return;
    const changes = { transferredAt: this.clock.now() };
    await this.logs.update(log, changes);
    await this.events.transferred({ ...attempt, log: { ...log, ...changes } });
  }

  /** The transfer came to nothing (refused, unanswered, busy): the call is the agent's again. */
  async notAnswered(attempt: Attempt): Promise<void> {
    const { log } = attempt;
    if (!log.transferredTo || log.transferredAt) return;
    await this.logs.update(log, {
      transferredTo: null,
      transferReason: null,
      transferBriefing: null,
    });
  }
}
