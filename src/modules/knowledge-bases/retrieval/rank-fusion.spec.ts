import { fuseRankings, RRF_K } from './rank-fusion';

describe('fuseRankings', () => {
  it('adds 1 / (k + place) over the rankings: found by both beats first in one', () => {
    const fused = fuseRankings([{ ids: ['a', 'b', 'c'] }, { ids: ['b', 'd'] }]);
    expect(fused.map(({ id }) => id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
    expect(fused[1].score).toBeCloseTo(1 / (RRF_K + 1), 12);
  });

  it('weighs each ranking', () => {
    const fused = fuseRankings([
      { ids: ['words'], weight: 1 },
      { ids: ['meaning'], weight: 0.5 },
    ]);
    expect(fused).toEqual([
      { id: 'words', score: 1 / (RRF_K + 1) },
      { id: 'meaning', score: 0.5 / (RRF_K + 1) },
    ]);
  });

  it('breaks ties by the best place, then by the ranking met first', () => {
    // x: places 1 and 3; y: places 2 and 2 — about the same sum, x was placed better.
    const k = 1;
    const fused = fuseRankings([{ ids: ['x', 'y'] }, { ids: ['z', 'y', 'x'] }], k);
    expect(fused.map(({ id }) => id)).toEqual(['x', 'y', 'z']);
    expect(fuseRankings([{ ids: ['p'] }, { ids: ['q'] }]).map(({ id }) => id)).toEqual(['p', 'q']);
  });

  it('is empty for no rankings or empty ones', () => {
    expect(fuseRankings([])).toEqual([]);
    expect(fuseRankings([{ ids: [] }, { ids: [] }])).toEqual([]);
  });
});
