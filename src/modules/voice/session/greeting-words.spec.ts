import { encodeUlaw } from '../audio/g711';
import { AnswerWatch, type AnswerVerdict } from './answer-watch';
import { GreetingWords } from './greeting-words';

const voice = (ms: number) =>
  encodeUlaw(
    Int16Array.from({ length: ms * 8 }, (_, i) => Math.round(6000 * Math.sin(i * 0.13 + i / 900))),
  );
const silence = (ms: number) => Buffer.alloc(ms * 8, 0xff);

function setUp(recognise: (ulaw: Buffer) => Promise<string>) {
  const verdicts: AnswerVerdict[] = [];
  const watch = new AnswerWatch((verdict) => verdicts.push({ ...verdict }));
  const asked: number[] = [];
  const failures: unknown[] = [];
  const abort = new AbortController();
  const words = new GreetingWords(
    watch,
    (ulaw) => {
      asked.push(ulaw.length);
      return recognise(ulaw);
    },
    abort.signal,
    (error) => failures.push(error),
  );
  const play = (audio: Buffer) => {
    for (let at = 0; at + 160 <= audio.length; at += 160) {
      const frame = audio.subarray(at, at + 160);
      words.hear(frame);
      watch.hear(frame);
    }
  };
  return { verdicts, asked, failures, abort, play };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GreetingWords', () => {
  it('transcribes the whole greeting at each pause, and the words of its last one decide', async () => {
    const said = ['thank you for calling', 'thank you for calling for sales press one'];
    const { verdicts, asked, play } = setUp(() => Promise.resolve(said.shift()!));
    // A menu that pauses after its welcome: the words of the welcome come too late to count.
    play(Buffer.concat([voice(2_000), silence(700), voice(1_500), silence(700)]));
    await settle();
    expect(asked).toEqual([(2_000 + 600) * 8, (2_000 + 700 + 1_500 + 600) * 8]);
    expect(verdicts.map((v) => [v.outcome, v.by])).toEqual([['ivr', 'words']]);
  });

  it('decides on the words of a greeting that did not go on', async () => {
    const { verdicts, asked, play } = setUp(() => Promise.resolve('for sales press one'));
    play(Buffer.concat([voice(4_000), silence(700)]));
    await settle();
    expect(verdicts.map((v) => [v.outcome, v.by])).toEqual([['ivr', 'words']]);
    expect(asked).toHaveLength(1);
  });

  it("leaves the verdict to the greeting's length when the transcription fails", async () => {
    const { verdicts, failures, play } = setUp(() =>
      Promise.reject(new Error('pocketsphinx_batch exited (SIGKILL)')),
    );
    play(Buffer.concat([voice(4_000), silence(3_800)]));
    await settle();
    expect(failures).toHaveLength(1);
    expect(verdicts.map((v) => [v.outcome, v.by])).toEqual([['voicemail', 'long greeting']]);
  });

  it('drops words that come after the call ended, and keeps no audio once decided', async () => {
    let answer: (words: string) => void = () => undefined;
    const { verdicts, abort, play, asked } = setUp(
      () => new Promise<string>((resolve) => (answer = resolve)),
    );
    play(Buffer.concat([voice(4_000), silence(700)]));
    abort.abort();
    answer('the mailbox is full');
    await settle();
    expect(verdicts).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('is not asked about a person', async () => {
    const { verdicts, asked, play } = setUp(() => Promise.resolve('hello'));
    play(Buffer.concat([voice(800), silence(1_000)]));
    await settle();
    expect(asked).toEqual([]);
    expect(verdicts.map((v) => v.outcome)).toEqual(['human']);
  });
});
