/** The constant of reciprocal rank fusion: how much the first places outweigh the next ones. */
export const RRF_K = 60;

/** One ranking, best first, and how much its places count (1 unless told). */
export interface Ranking<T> {
  ids: readonly T[];
  weight?: number;
}

export interface FusedItem<T> {
  id: T;
  /** Sum over the rankings that hold the item of weight / (k + its place, from 1). */
  score: number;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each ranking gives an item
 * weight / (k + place), the sums decide. Rankings of different scales (word weights, cosine
 * similarity) are merged by their order alone, and an item found by both outranks one only
 * either found first. Ties go to the item placed best in any ranking, then to the one met first.
 */
export function fuseRankings<T>(
  rankings: ReadonlyArray<Ranking<T>>,
  k: number = RRF_K,
): FusedItem<T>[] {
  const fused = new Map<T, { score: number; best: number; order: number }>();
  let order = 0;
  for (const { ids, weight = 1 } of rankings) {
    ids.forEach((id, index) => {
      const place = index + 1;
      const entry = fused.get(id);
      if (entry) {
        entry.score += weight / (k + place);
        entry.best = Math.min(entry.best, place);
      } else {
        fused.set(id, { score: weight / (k + place), best: place, order: order++ });
      }
    });
  }
  return [...fused]
    .sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.order - b.order)
    .map(([id, { score }]) => ({ id, score }));
}
