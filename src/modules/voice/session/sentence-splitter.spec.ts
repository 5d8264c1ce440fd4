import { SentenceSplitter } from './sentence-splitter';

/** Feeds `text` in pieces of `size` characters; returns sentences in the order they came out. */
function split(text: string, size = 1): string[] {
  const splitter = new SentenceSplitter();
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size)
    out.push(...splitter.push(text.slice(at, at + size)));
  return [...out, ...splitter.flush()];
}

describe('SentenceSplitter', () => {
  it('gives a sentence as soon as the space after its end arrives', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('Hello there')).toEqual([]);
    expect(splitter.push('. How')).toEqual(['Hello there.']);
    expect(splitter.push(' are')).toEqual([]);
    expect(splitter.push(' you? I')).toEqual(['How are you?']);
    expect(splitter.flush()).toEqual(['I']);
    expect(splitter.flush()).toEqual([]);
  });

  it.each([
    ['Great! Is Tuesday ok? Yes… I think so.', ['Great!', 'Is Tuesday ok?', 'Yes…', 'I think so.']],
    ['Wait... really?! Fine.', ['Wait...', 'really?!', 'Fine.']],
    ['He said "no." Then he left.', ['He said "no."', 'Then he left.']],
    ['First line\nSecond line\n\nThird', ['First line', 'Second line', 'Third']],
    ['Dr. Smith will call. Mr. Jones too.', ['Dr. Smith will call.', 'Mr. Jones too.']],
    ['It costs 3.5 dollars. Ok.', ['It costs 3.5 dollars.', 'Ok.']],
    ['Come at 10.30 or 10:45. Thanks.', ['Come at 10.30 or 10:45.', 'Thanks.']],
    ['Bring papers, e.g. a passport. Thanks.', ['Bring papers, e.g. a passport.', 'Thanks.']],
    ['See you at 5 p.m. Bye now.', ['See you at 5 p.m.', 'Bye now.']],
    ['Meet at 5 p.m. tomorrow. Bye.', ['Meet at 5 p.m. tomorrow.', 'Bye.']],
    ['Ask J. Smith. He knows.', ['Ask J. Smith.', 'He knows.']],
    ['Visit example.com today. Bye.', ['Visit example.com today.', 'Bye.']],
    ['Steps:\n1. Call us\n2. Pay', ['Steps:', '1. Call us', '2. Pay']],
    ['I have 3. You have 4.', ['I have 3.', 'You have 4.']],
  ])('splits %j', (text, sentences) => {
    expect(split(text)).toEqual(sentences);
    expect(split(text, 4)).toEqual(sentences);
    expect(split(text, text.length)).toEqual(sentences);
  });

  it('waits on an ambiguous period until the next word says', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('Call me at 9 a.m. ')).toEqual([]);
    expect(splitter.push('OK?')).toEqual(['Call me at 9 a.m.']);
  });

  it('gives nothing for blank text', () => {
    expect(split('  \n \n ')).toEqual([]);
  });
});
