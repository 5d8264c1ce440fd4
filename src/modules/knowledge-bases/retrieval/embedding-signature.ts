/**
 * Sign bits of SIGNATURE_BITS random projections of an embedding (Charikar's SimHash): two
 * vectors at angle θ differ in about θ/π of the bits, so the passages whose signatures are
 * nearest in Hamming distance (bit_count(a # b), cheap on both PostgreSQL and PGlite, no
 * extension) are those nearest in cosine, give or take; their exact similarity is computed next.
 * The projections are drawn from a fixed seed: a signature is the same in every process.
 */
export const SIGNATURE_BITS = 256;

const projections = new Map<number, Int8Array>();

/** The signature of `vector` as PostgreSQL bit-string text ('0110…'). */
export function embeddingSignature(vector: Float32Array): string {
  const plane = projectionsFor(vector.length);
  let bits = '';
  for (let bit = 0; bit < SIGNATURE_BITS; bit += 1) {
    const row = bit * vector.length;
    let sum = 0;
    for (let i = 0; i < vector.length; i += 1) sum += plane[row + i] * vector[i];
    bits += sum >= 0 ? '1' : '0';
  }
  return bits;
}

/** ±1 entries (random hyperplanes with Rademacher normals), one row per bit. */
function projectionsFor(dimensions: number): Int8Array {
  let plane = projections.get(dimensions);
  if (!plane) {
    plane = new Int8Array(SIGNATURE_BITS * dimensions);
    let state = 0x9e3779b9 ^ dimensions;
    for (let i = 0; i < plane.length; i += 1) {
      // xorshift32
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      plane[i] = state & 1 ? 1 : -1;
    }
    projections.set(dimensions, plane);
  }
  return plane;
}
