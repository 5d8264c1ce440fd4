import type { PacedStream } from '../audio/paced-stream';
import type { AgentLine } from './call-flow';
import { AGENT_LINES } from './conversation-phrases';
import type { TurnLog } from './turn-log';

/** What saying a line needs of the call session. */
export interface LineOutput {
  paced: PacedStream;
  /** Queues `text` in the call's voice: kept audio at once, else synthesized (LineAudio). */
  speakLine(text: string): Promise<void>;
}

/**
 * The agent's own words outside the model's replies (a re-prompt, "one moment", an apology, last
 * words): nobody interrupts them, each is stored as a turn once queued, and each ends with a mark
 * of its own. `say` resolves once the line's audio has all gone out.
 */
export class AgentLines {
  private count = 0;

  constructor(
    private readonly session: LineOutput,
    private readonly log: TurnLog | null,
  ) {}

  async say(line: AgentLine): Promise<void> {
    const text = AGENT_LINES[line];
    await this.session.speakLine(text);
    this.log?.said(text);
    // e.g. transfer-failed-2: the line, and which line of the call it was.
    const kebab = line.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    this.session.paced.mark(`${kebab}-${(this.count += 1)}`);
    await this.session.paced.drained();
  }
}
