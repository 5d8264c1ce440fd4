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

describe('NumberPacing over a provider account', () => {
  const account = (callsPerSecond: number, nextDialAt: Date | null = null) => ({
    id: 'acct',
    callsPerSecond,
    nextDialAt,
  });
  const numbers = (ids: string[]) =>
    ids.map((id) => ({ id, nextDialAt: null, providerAccountId: 'acct' }));

  it('numbers of one account share its slots: at 1 call/s, one call between three numbers', () => {
    const pacing = new NumberPacing(numbers(['a', 'b', 'c']), now, 1, [account(1)]);
    expect(pacing.take()).toMatchObject({ at: now, account: { id: 'acct', next: at(1000) } });
    expect(pacing.take()).toBeUndefined();
  });

  it('a slot is the later of the number and the account: the account paced ahead holds every number', () => {
    const pacing = new NumberPacing(numbers(['a', 'b']), now, 1, [account(2, at(700))]);
    expect(pacing.take()).toMatchObject({ phone: { id: 'a' }, at: at(700) });
    expect(pacing.take()).toBeUndefined();
  });

  it('an account faster than its numbers rotates them, whole milliseconds rounded up', () => {
    const pacing = new NumberPacing(numbers(['a', 'b', 'c']), now, 1, [account(3)]);
    const slots = [pacing.take(), pacing.take(), pacing.take(), pacing.take()];
    expect(slots.map((slot) => slot && [slot.phone.id, slot.at.getTime() - now.getTime()])).toEqual(
      [['a', 0], ['b', 334], ['c', 668], undefined],
    );
    expect(slots[2]?.account?.next).toEqual(at(1002));
  });

  it('a number without an account (added before accounts were kept) is paced alone', () => {
    const pacing = new NumberPacing(
      [{ id: 'legacy', nextDialAt: null }, ...numbers(['a'])],
      now,
      1,
      [account(1, at(5000))],
    );
    expect(pacing.take()).toMatchObject({ phone: { id: 'legacy' }, at: now });
    expect(pacing.take()).toBeUndefined();
  });
});
