import { MAX_QUERY_WORDS, queryTerms } from './full-text-query';

describe('queryTerms', () => {
  it('keeps every word of a customer question, once, quoted, the long ones as prefixes', () => {
    expect(queryTerms('What time do you open on Sunday?')).toEqual([
      "'what'",
      "'time'",
      "'do'",
      "'you'",
      "'open'",
      "'on'",
      "'sunday':*",
    ]);
  });

  it('reads no operator, quote or backslash of the message as syntax', () => {
    expect(queryTerms(`refund & !shipping | "it's" \\ (order):* <-> 'x'`)).toEqual([
      "'refund':*",
      "'shipping':*",
      "'it'",
      "'order':*",
    ]);
  });

  it('drops single letters but keeps digits, and lower-cases any script', () => {
    expect(queryTerms('A 7 year old, I think')).toEqual(["'7'", "'year'", "'old'", "'think':*"]);
    expect(queryTerms('Où est ma COMMANDE ?')).toEqual(["'où'", "'est'", "'ma'", "'commande':*"]);
    expect(queryTerms('Ночью открыто?')).toEqual(["'ночью':*", "'открыто':*"]);
  });

  it('has no query for a message without words', () => {
    expect(queryTerms('?! … 👍')).toEqual([]);
  });

  it(`keeps at most ${MAX_QUERY_WORDS} distinct words`, () => {
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`);
    const terms = queryTerms([...words, ...words].join(' '));
    expect(terms).toHaveLength(MAX_QUERY_WORDS);
    expect(terms[0]).toBe("'word0':*");
    expect(new Set(terms).size).toBe(MAX_QUERY_WORDS);
  });
});
