import { MAX_TURN_WAIT_PAUSES, nextTurn, type PendingMessage } from './reply-turn';

const PAUSE = 1_500;
/** Pending messages stored `ages` ms ago, oldest first. */
const stored = (...ages: number[]): Array<PendingMessage & { id: string }> =>
  ages.map((ageMs, index) => ({ id: `m${index + 1}`, ageMs, answered: false }));
const ids = (turn: ReturnType<typeof nextTurn<PendingMessage & { id: string }>>) =>
  turn.kind === 'answer' ? turn.messages.map((message) => message.id) : turn;

describe('nextTurn', () => {
  it('has nothing to do without pending messages', () => {
    expect(nextTurn([], PAUSE)).toEqual({ kind: 'idle' });
  });

  it('waits until the conversation has been quiet for the pause since the latest message', () => {
    // "Hi" / "where is my order?" / "#123", 300 ms apart, the last one 100 ms ago.
    expect(nextTurn(stored(700, 400, 100), PAUSE)).toEqual({ kind: 'wait', ms: 1_400 });
    expect(nextTurn(stored(2_100, 1_800, 1_499.5), PAUSE)).toEqual({ kind: 'wait', ms: 1 });
  });

  it('answers the whole burst together once it is quiet', () => {
    expect(ids(nextTurn(stored(2_100, 1_800, 1_500), PAUSE))).toEqual(['m1', 'm2', 'm3']);
    expect(ids(nextTurn(stored(9_000), PAUSE))).toEqual(['m1']);
  });

  it('answers someone who keeps writing once their first message has waited long enough', () => {
    const cap = MAX_TURN_WAIT_PAUSES * PAUSE;
    expect(nextTurn(stored(cap - 200, 1_000, 10), PAUSE)).toEqual({ kind: 'wait', ms: 200 });
    expect(ids(nextTurn(stored(cap, 1_000, 10), PAUSE))).toEqual(['m1', 'm2', 'm3']);
  });

  it('answers at once up to a message whose reply an earlier worker already stored', () => {
    const pending = stored(5_000, 4_000, 50);
    pending[1].answered = true;
    expect(ids(nextTurn(pending, PAUSE))).toEqual(['m1', 'm2']);
  });

  it('answers each message on its own without a pause', () => {
    expect(ids(nextTurn(stored(5, 0), 0))).toEqual(['m1', 'm2']);
  });
});
