import type { SessionSide } from './conversation';
import type { TurnLog } from './turn-log';

/**
 * The agent's own words outside the model's replies (a re-prompt, an apology, last words):
 * nobody interrupts them, and each is stored as a turn once synthesized.
 */
export class AgentLines {
  constructor(
    private readonly session: SessionSide,
    private readonly log: TurnLog,
    private readonly warn: (error: unknown, message: string) => void,
  ) {}

  /** Says `text`, stores it, and marks its end with `mark`. */
  async aside(text: string, mark: string): Promise<void> {
    await this.session.speak(text, new AbortController().signal);
    this.log.said(text);
    this.session.paced.mark(mark);
  }

  /**
   * Last words, then the end of the call, which comes even when the words cannot be synthesized
   * (also called off timers, where a throw would end the process).
   */
  async last(text: string): Promise<void> {
    try {
      await this.session.speak(text, new AbortController().signal);
      this.log.said(text);
      await this.session.paced.drained();
    } catch (error) {
      this.warn(error, 'Last words failed');
    }
    await this.session.hangUp();
  }
}
