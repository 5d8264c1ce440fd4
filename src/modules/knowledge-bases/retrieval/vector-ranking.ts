/**
 * The candidates most similar to `query` (cosine: all vectors are unit length, so the dot
 * product), best first, at most `depth`, none below `minSimilarity`; ties in id order.
 * Candidates of another dimension are skipped.
 */
export function rankBySimilarity(
  query: Float32Array,
  candidates: ReadonlyArray<{ id: number; vector: Float32Array }>,
  { depth, minSimilarity }: { depth: number; minSimilarity: number },
): number[] {
  const scored: Array<{ id: number; similarity: number }> = [];
  for (const { id, vector } of candidates) {
    if (vector.length !== query.length) continue;
    let similarity = 0;
    for (let i = 0; i < query.length; i += 1) similarity += query[i] * vector[i];
    if (similarity >= minSimilarity) scored.push({ id, similarity });
  }
  return scored
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
    .slice(0, depth)
    .map(({ id }) => id);
}
