import { NumberPacing } from './number-pacing';

const now = new Date('2026-03-02T15:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('NumberPacing', () => {
  it('gives each number one slot per 1/callsPerSecond, starting within the coming second', () => {
    const pacing = new NumberPacing([{ id: 'a', nextDialAt: null }], now, 1);
    expect(pacing.take()).toMatchObject({ at: now, next: at(1000) });
    expect(pacing.take()).toBeUndefined();
  });

  it('at 4 calls/s a number takes four slots 250 ms apart in one tick', () => {
    const pacing = new NumberPacing([{ id: 'a', nextDialAt: null }], now, 4);
    const slots = [pacing.take(), pacing.take(), pacing.take(), pacing.take(), pacing.take()];
    expect(slots.map((slot) => slot?.at.getTime())).toEqual(
      [0, 250, 500, 750, undefined].map((ms) =>
        ms === undefined ? undefined : now.getTime() + ms,
      ),
    );
  });

  it('rotates: the number whose slot comes first, least recently used on a tie', () => {
    const pacing = new NumberPacing(
      [
        { id: 'busy', nextDialAt: at(600) },
        { id: 'idle', nextDialAt: null },
        { id: 'old', nextDialAt: at(-5000) },
      ],
      now,
      1,
    );
    expect([pacing.take(), pacing.take(), pacing.take()].map((s) => s?.phone.id)).toEqual([
      'idle',
      'old',
      'busy',
    ]);
    expect(pacing.take()).toBeUndefined();
  });

  it('a number paced beyond the coming second is not used this tick', () => {
    const pacing = new NumberPacing([{ id: 'a', nextDialAt: at(1000) }], now, 1);
    expect(pacing.take()).toBeUndefined();
  });
});
