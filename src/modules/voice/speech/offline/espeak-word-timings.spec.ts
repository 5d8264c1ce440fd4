import { ESPEAK_EVENT, type EspeakEvent, EspeakWordTimings } from './espeak-word-timings';

const { word, clauseEnd, messageEnd } = ESPEAK_EVENT;
const at = (type: number, textPosition: number, audioMs: number): EspeakEvent => ({
  type,
  textPosition,
  audioMs,
});

describe("the text's words timed from eSpeak NG's events", () => {
  it('ends each word where the next word or its clause begins, told as soon as that is known', () => {
    // What eSpeak NG 1.51 reported for this text (en-us): positions in code points, from 1.
    const timings = new EspeakWordTimings('Hello there, my friend.');
    expect(timings.push([at(2, 1, 0), at(word, 1, 0)])).toEqual([]);
    expect(timings.push([at(word, 7, 299)])).toEqual([{ text: 'Hello', endMs: 299 }]);
    // "there," ends with its clause; it is told once the next word starts.
    expect(timings.push([at(clauseEnd, 13, 842)])).toEqual([]);
    expect(timings.push([at(word, 14, 842), at(word, 17, 974)])).toEqual([
      { text: 'there,', endMs: 842 },
      { text: 'my', endMs: 974 },
    ]);
    expect(timings.push([at(clauseEnd, 24, 1734), at(messageEnd, 24, 1734)])).toEqual([]);
    expect(timings.end(1800)).toEqual([{ text: 'friend.', endMs: 1734 }]);
    expect(timings.end(1800)).toEqual([]);
  });

  it("gives each whitespace word one time, however many of eSpeak's words it holds or none", () => {
    const timings = new EspeakWordTimings('Le café — au lait, 3.50 dollars? Yes: x-ray');
    const told = [
      ...timings.push([
        ...[at(word, 1, 0), at(word, 4, 102), at(clauseEnd, 10, 820)],
        ...[at(word, 11, 820), at(word, 14, 935), at(clauseEnd, 19, 1424)],
        // "3.50": three, point, five, zero.
        ...[at(word, 20, 1424), at(word, 21, 1648), at(word, 21, 1960), at(word, 21, 2275)],
        ...[at(word, 25, 2589), at(clauseEnd, 33, 3352), at(word, 34, 3352)],
        ...[at(clauseEnd, 38, 3993), at(word, 39, 3993), at(clauseEnd, 43, 4570)],
      ]),
      ...timings.end(4594),
    ];
    expect(told).toEqual([
      { text: 'Le', endMs: 102 },
      { text: 'café', endMs: 820 },
      { text: '—', endMs: 820 },
      { text: 'au', endMs: 935 },
      { text: 'lait,', endMs: 1424 },
      { text: '3.50', endMs: 2589 },
      { text: 'dollars?', endMs: 3352 },
      { text: 'Yes:', endMs: 3993 },
      { text: 'x-ray', endMs: 4570 },
    ]);
  });

  it('ends a last word no event closed with the audio', () => {
    const timings = new EspeakWordTimings('  Hi  there ');
    expect(timings.push([at(word, 3, 0), at(word, 7, 250)])).toEqual([{ text: 'Hi', endMs: 250 }]);
    expect(timings.end(700)).toEqual([{ text: 'there', endMs: 700 }]);
  });

  it('has no words for a blank text', () => {
    expect(new EspeakWordTimings(' \n ').end(100)).toEqual([]);
  });
});
