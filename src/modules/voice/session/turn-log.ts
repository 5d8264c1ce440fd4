import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import type { PhoneLogsRepository } from '../../call-records/phone-logs.repository';

/**
 * The conversation's turns: the history the model is given, and the phone log's copy, written
 * one after another so they keep their order (a failed write is reported, never thrown).
 */
export class TurnLog {
  readonly history: Pick<PhoneLogTurn, 'role' | 'text'>[];
  private storing: Promise<void> = Promise.resolve();

  /** `earlier`: the turns already stored (a conversation that goes on on a new stream). */
  constructor(
    private readonly turns: Pick<PhoneLogsRepository, 'appendTurn'>,
    private readonly call: { organizationId: string; phoneLogId: string },
    private readonly failed: (error: unknown) => void,
    earlier: readonly PhoneLogTurn[] = [],
  ) {
    this.history = earlier.map(({ role, text }) => ({ role, text }));
  }

  record(turn: PhoneLogTurn): void {
    this.history.push({ role: turn.role, text: turn.text });
    const { organizationId, phoneLogId } = this.call;
    this.storing = this.storing
      .then(() => this.turns.appendTurn(organizationId, phoneLogId, turn))
      .catch(this.failed);
  }

  /** An agent's line said just now, outside a reply. */
  said(text: string): void {
    this.record({ role: 'agent', text, startedAt: new Date().toISOString() });
  }
}
