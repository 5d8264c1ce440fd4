import { embeddingSignature, SIGNATURE_BITS } from './embedding-signature';
import { LOCAL_EMBEDDING_DIMENSIONS, localEmbedding } from './local-embedding';
import { rankBySimilarity } from './vector-ranking';

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, i) => sum + value * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('localEmbedding', () => {
  it('is a unit vector of fixed size, the same for the same text', () => {
    const vector = localEmbedding('Opening hours: Sunday 10–4');
    expect(vector).toHaveLength(LOCAL_EMBEDDING_DIMENSIONS);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(localEmbedding('Opening hours: Sunday 10–4')).toEqual(vector);
  });

  it('ignores case, accents, punctuation and stop words', () => {
    const base = localEmbedding('Livraison gratuite dès 99 $');
    expect(cosine(base, localEmbedding('LIVRAISON — gratuite, des 99!'))).toBeCloseTo(1, 5);
    expect(cosine(localEmbedding('the shipping'), localEmbedding('shipping'))).toBeCloseTo(1, 5);
  });

  it('puts a misspelt question closer to its passage than to another', () => {
    const shipping = localEmbedding(
      'Express shipping costs $19.95 and arrives in 1 to 2 business days.',
    );
    const warranty = localEmbedding('Every new bike comes with a lifetime warranty on the frame.');
    const question = localEmbedding('how fast is expres shiping');
    expect(cosine(question, shipping)).toBeGreaterThan(cosine(question, warranty) + 0.2);
  });

  it('is all zeros for a text with no word that counts', () => {
    expect(norm(localEmbedding('the, and, of!'))).toBe(0);
  });
});

describe('embeddingSignature', () => {
  it('has SIGNATURE_BITS bits, the same in every call, nearer for nearer vectors', () => {
    const a = localEmbedding('Refunds go back to the original payment method');
    const near = localEmbedding('refunds go back to the original card');
    const far = localEmbedding('Group rides leave every Saturday at 8 am');
    const signature = embeddingSignature(a);
    expect(signature).toMatch(new RegExp(`^[01]{${SIGNATURE_BITS}}$`));
    expect(embeddingSignature(a)).toBe(signature);
    const distance = (x: string, y: string) => [...x].filter((bit, i) => bit !== y[i]).length;
    expect(distance(signature, embeddingSignature(near))).toBeLessThan(
      distance(signature, embeddingSignature(far)),
    );
  });
});

describe('rankBySimilarity', () => {
  const unit = (...values: number[]) => {
    const vector = Float32Array.from(values);
    return vector.map((value) => value / norm(vector));
  };

  it('ranks by cosine, drops those below the floor and other dimensions, ties by id', () => {
    const query = unit(1, 0);
    const candidates = [
      { id: 4, vector: unit(0, 1) },
      { id: 3, vector: unit(1, 1) },
      { id: 2, vector: unit(1, 0.1) },
      { id: 1, vector: unit(1, 1) },
      { id: 5, vector: unit(1, 0, 0) },
    ];
    expect(rankBySimilarity(query, candidates, { depth: 10, minSimilarity: 0.5 })).toEqual([
      2, 1, 3,
    ]);
    expect(rankBySimilarity(query, candidates, { depth: 1, minSimilarity: -1 })).toEqual([2]);
  });
});
