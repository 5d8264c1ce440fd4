import { fairOrder } from './dialer-scheduler';

const batch = (organizationId: string, id: string) => ({ organizationId, id });

describe('fairOrder', () => {
  const batches = [batch('o1', 'a1'), batch('o1', 'a2'), batch('o1', 'a3'), batch('o2', 'b1')];

  it('interleaves organizations: a big one never claims all before a small one', () => {
    expect(fairOrder(batches, 0).map((b) => b.id)).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('rotates the first organization and the first batch of each, round by round', () => {
    expect(fairOrder(batches, 1).map((b) => b.id)).toEqual(['b1', 'a2', 'a3', 'a1']);
    expect(fairOrder(batches, 2).map((b) => b.id)).toEqual(['a3', 'b1', 'a1', 'a2']);
  });

  it('keeps every batch exactly once', () => {
    for (let round = 0; round < 7; round += 1) {
      expect(
        fairOrder(batches, round)
          .map((b) => b.id)
          .sort(),
      ).toEqual(['a1', 'a2', 'a3', 'b1']);
    }
    expect(fairOrder([], 3)).toEqual([]);
  });
});
