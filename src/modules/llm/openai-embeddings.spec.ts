import { LlmError } from './llm.error';
import { parseEmbeddings } from './openai-embeddings';

const answer = (data: unknown) => JSON.stringify({ object: 'list', data, model: 'm' });

describe('parseEmbeddings', () => {
  it('orders the vectors by index and scales each to unit length', () => {
    const [first, second] = parseEmbeddings(
      answer([
        { index: 1, embedding: [0, 2] },
        { index: 0, embedding: [3, 4] },
      ]),
      2,
    );
    expect(Array.from(first)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(second)).toEqual([0, 1]);
  });

  it.each([
    ['not JSON', '<html>bad gateway</html>'],
    ['too few', answer([{ index: 0, embedding: [1] }])],
    ['no data', JSON.stringify({ error: 'x' })],
    [
      'a text',
      answer([
        { index: 0, embedding: ['1'] },
        { index: 1, embedding: [1] },
      ]),
    ],
    [
      'not finite',
      answer([
        { index: 0, embedding: [null] },
        { index: 1, embedding: [1] },
      ]),
    ],
    [
      'two sizes',
      answer([
        { index: 0, embedding: [1, 0] },
        { index: 1, embedding: [1] },
      ]),
    ],
    [
      'an index twice',
      answer([
        { index: 0, embedding: [1] },
        { index: 0, embedding: [1] },
      ]),
    ],
    [
      'an index out of range',
      answer([
        { index: 0, embedding: [1] },
        { index: 2, embedding: [1] },
      ]),
    ],
    [
      'all zeros',
      answer([
        { index: 0, embedding: [0, 0] },
        { index: 1, embedding: [1, 0] },
      ]),
    ],
  ])('refuses an answer that is %s as malformed', (_case, body) => {
    expect(() => parseEmbeddings(body, 2)).toThrow(LlmError);
    try {
      parseEmbeddings(body, 2);
    } catch (error) {
      expect((error as LlmError).kind).toBe('malformed');
    }
  });
});
