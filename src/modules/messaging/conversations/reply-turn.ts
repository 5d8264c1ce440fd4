/** An incoming message the reply worker has not handled yet, as it decides what to do next. */
export interface PendingMessage {
  /** How long ago it was stored, by the database's clock (the same for every process). */
  ageMs: number;
  /** A reply to it is already stored: an earlier worker answered up to here, then stopped. */
  answered: boolean;
}

/** What the reply worker of a conversation does next with its pending messages. */
export type NextTurn<T> =
  | { kind: 'idle' }
  /** The customer may still be writing: look again in `ms`. */
  | { kind: 'wait'; ms: number }
  /** These messages (oldest first) are one customer turn: one reply answers them all. */
  | { kind: 'answer'; messages: T[] };

/**
 * However long a customer keeps writing, their first unanswered message waits at most this many
 * pauses: someone typing a message every second is still answered.
 */
export const MAX_TURN_WAIT_PAUSES = 4;

/**
 * The customer's turn to answer, from the pending messages oldest first: all of them once the
 * conversation has been quiet for `pauseMs` since the latest (or the oldest has waited
 * MAX_TURN_WAIT_PAUSES pauses); until then, wait. Messages up to one whose reply is already
 * stored are that stored reply's turn, answered at once (it is only sent, never generated again).
 */
export function nextTurn<T extends PendingMessage>(
  pending: readonly T[],
  pauseMs: number,
): NextTurn<T> {
  if (pending.length === 0) return { kind: 'idle' };
  const answered = pending.findIndex((message) => message.answered);
  if (answered >= 0) return { kind: 'answer', messages: pending.slice(0, answered + 1) };
  const quietIn = pauseMs - pending[pending.length - 1].ageMs;
  const overdueIn = MAX_TURN_WAIT_PAUSES * pauseMs - pending[0].ageMs;
  const waitMs = Math.ceil(Math.min(quietIn, overdueIn));
  if (waitMs > 0) return { kind: 'wait', ms: waitMs };
  return { kind: 'answer', messages: [...pending] };
}
