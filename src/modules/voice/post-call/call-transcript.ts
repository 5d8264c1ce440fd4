import type { TranscriptTurn } from '@app/contracts';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';

const SPEAKERS = { agent: 'Agent', callee: 'Callee' } as const;

/** The phone log's `transcript`: one `Agent: …` / `Callee: …` line per turn (contract §3). */
export function transcriptText(turns: Pick<PhoneLogTurn, 'role' | 'text'>[]): string {
  return turns
    .map((turn) => `${SPEAKERS[turn.role]}: ${turn.text.replace(/\s+/g, ' ').trim()}`)
    .join('\n');
}

/** The events' `transcript_turns`: each turn's start in whole seconds from the answer. */
export function transcriptTurns(turns: PhoneLogTurn[], answeredAt: Date | null): TranscriptTurn[] {
  const origin = answeredAt?.getTime() ?? Date.parse(turns[0]?.startedAt ?? '');
  return turns.map((turn) => ({
    role: turn.role,
    text: turn.text,
    start_seconds: Math.max(0, Math.round((Date.parse(turn.startedAt) - origin) / 1000) || 0),
  }));
}
