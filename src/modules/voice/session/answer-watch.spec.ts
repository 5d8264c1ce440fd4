import { encodeUlaw } from '../audio/g711';
import { ulawTone } from '../../../../test/fakes/ulaw-tone';
import { machineKindOfWords, outcomeOfWords } from './answer-outcome';
import { AnswerWatch, type AnswerVerdict } from './answer-watch';

/** Voice-like audio: three drifting partials, loud, never one steady pitch. */
function voice(ms: number): Buffer {
  return encodeUlaw(
    Int16Array.from({ length: ms * 8 }, (_, i) => {
      const t = i / 8000;
      const f0 = 140 + 30 * Math.sin(2 * Math.PI * 3 * t);
      return Math.round(
        3000 * Math.sin(2 * Math.PI * f0 * t) +
          2500 * Math.sin(2 * Math.PI * 2.7 * f0 * t) +
          2000 * Math.sin(2 * Math.PI * 5.3 * f0 * t),
      );
    }),
  );
}
const silence = (ms: number) => Buffer.alloc(ms * 8, 0xff);

function listen(...parts: Array<Buffer | string>) {
  const verdicts: AnswerVerdict[] = [];
  const watch = new AnswerWatch((verdict) => verdicts.push({ ...verdict }));
  for (const part of parts) {
    if (typeof part === 'string') {
      watch.heard(part);
      continue;
    }
    for (let at = 0; at + 160 <= part.length; at += 160) watch.hear(part.subarray(at, at + 160));
  }
  return { verdicts, watch };
}

describe('AnswerWatch', () => {
  it('a short "Hello?" and a pause is a person, told within 1.5 s of it', () => {
    const { verdicts } = listen(silence(300), voice(500), silence(1_000));
    expect(verdicts).toEqual([{ outcome: 'human', afterMs: 1_400, by: 'short greeting' }]);
  });

  it('a long greeting that says to leave a message is voicemail, once its words come', () => {
    const { verdicts } = listen(
      silence(200),
      voice(3_500),
      silence(400),
      "Hi, you've reached Sam. Please leave a message after the tone.",
      silence(1_000),
    );
    expect(verdicts).toEqual([{ outcome: 'voicemail', afterMs: 4_100, by: 'words' }]);
  });

  it('tells a full mailbox, a menu and a screening assistant by their words', () => {
    const outcome = (words: string) => listen(voice(3_000), words).verdicts[0]?.outcome;
    expect(outcome('The mailbox is full and cannot accept any new messages. Goodbye.')).toBe(
      'mailbox_full',
    );
    expect(outcome('Thank you for calling Acme. For sales, press 1. For support, press 2.')).toBe(
      'ivr',
    );
    expect(
      outcome(
        "Hi, the person you're calling is using a screening service. Please state your name.",
      ),
    ).toBe('call_screening');
  });

  it('a beep ends any doubt: voicemail, its end known', () => {
    const { verdicts, watch } = listen(
      voice(2_500),
      silence(300),
      ulawTone(1_000, 300),
      silence(200),
    );
    expect(verdicts).toEqual([{ outcome: 'voicemail', afterMs: 3_120, by: 'beep' }]);
    expect(watch.beepHeard).toBe(true);
  });

  it('a fax answer tone is a fax', () => {
    const { verdicts } = listen(silence(200), ulawTone(2_100, 3_000));
    expect(verdicts.map((v) => [v.outcome, v.by])).toEqual([['fax', 'fax tone']]);
    expect(verdicts[0].afterMs).toBeLessThan(1_000);
  });

  it('a long greeting whose words say nothing machine-like stays uncertain until its beep', () => {
    const { verdicts } = listen(
      voice(3_000),
      silence(700),
      'Hello this is Sarah Johnson from accounting how can I help',
      silence(2_000),
      ulawTone(1_000, 300),
      silence(100),
    );
    expect(verdicts.map((v) => [v.outcome, v.by])).toEqual([
      ['uncertain', 'long greeting'],
      ['voicemail', 'beep'],
    ]);
  });

  it('a long greeting whose words never come is judged by its length once they were waited for', () => {
    const { verdicts } = listen(voice(3_000), silence(3_700));
    expect(verdicts).toEqual([{ outcome: 'uncertain', afterMs: 6_600, by: 'long greeting' }]);
    // 4 s on end is no way to answer the phone: a recording, even when its words were misheard.
    const recording = listen(voice(4_000), silence(700), 'hungry but what would you want');
    expect(recording.verdicts).toEqual([
      { outcome: 'voicemail', afterMs: 4_700, by: 'long greeting' },
    ]);
  });

  it('a silent line is uncertain at 4 s; a person is never corrected by a later tone', () => {
    expect(listen(silence(5_000)).verdicts).toEqual([
      { outcome: 'uncertain', afterMs: 4_000, by: 'silence' },
    ]);
    const person = listen(voice(600), silence(700), ulawTone(1_000, 300), silence(100));
    expect(person.verdicts.map((v) => v.outcome)).toEqual(['human']);
  });
});

describe('outcomeOfWords', () => {
  it('knows each class by its usual phrases, misheard punctuation and case aside', () => {
    expect(outcomeOfWords('YOU HAVE REACHED the voicemail of')).toBe('voicemail');
    expect(outcomeOfWords("I can't come to the phone right now")).toBe('voicemail');
    expect(outcomeOfWords('the voice mailbox is full')).toBe('mailbox_full');
    expect(outcomeOfWords('this mailbox has not been set up')).toBe('mailbox_full');
    expect(outcomeOfWords('Google Assistant, who is calling?')).toBe('call_screening');
    expect(outcomeOfWords('para español, oprima el nueve')).toBe('ivr');
    expect(outcomeOfWords('Hello? Who is this?')).toBeNull();
    expect(outcomeOfWords('yeah hi what can I do for you')).toBeNull();
  });
});

describe('machineKindOfWords', () => {
  it("tells a machine's kind from single words a recogniser kept, else voicemail", () => {
    expect(machineKindOfWords('the mike you are the full you cannot')).toBe('mailbox_full');
    expect(machineKindOfWords('thank you for calling a brief full for quality')).toBe(
      'mailbox_full',
    );
    expect(machineKindOfWords('if you know your party you may dial it at any time')).toBe('ivr');
    expect(machineKindOfWords('hi leave leave your name and why you are calling')).toBe(
      'call_screening',
    );
    // "Leave your full name": a voicemail's words, not a full mailbox.
    expect(machineKindOfWords('please leave your full name and number')).toBe('voicemail');
    expect(machineKindOfWords('hi you have reached the mailbox of sam')).toBe('voicemail');
    expect(machineKindOfWords('')).toBe('voicemail');
  });

  it('only ever names the kind of a greeting already too long for a person', () => {
    // 2.5 s of talk whose words say "full": between a person's and a recording's length.
    const { verdicts } = listen(voice(2_500), silence(700), 'you are full', silence(100));
    expect(verdicts.map((v) => v.outcome)).toEqual(['uncertain']);
    const long = listen(voice(4_000), silence(700), 'you are full', silence(100));
    expect(long.verdicts.map((v) => [v.outcome, v.by])).toEqual([
      ['mailbox_full', 'long greeting'],
    ]);
  });
});

describe('AnswerWatch.onGreetingEnded', () => {
  it('asks for words at each pause of a greeting too long for a person, never of a short one', () => {
    const asked: number[] = [];
    const verdicts: AnswerVerdict[] = [];
    const watch = new AnswerWatch((verdict) => verdicts.push(verdict));
    let heardMs = 0;
    watch.onGreetingEnded(() => asked.push(heardMs));
    const play = (audio: Buffer) => {
      for (let at = 0; at + 160 <= audio.length; at += 160) {
        heardMs += 20;
        watch.hear(audio.subarray(at, at + 160));
      }
    };
    play(Buffer.concat([voice(2_500), silence(800), voice(1_500), silence(800)]));
    expect(asked).toEqual([3_100, 5_400]);
    const person = new AnswerWatch(() => undefined);
    person.onGreetingEnded(() => asked.push(-1));
    for (const audio of [voice(600), silence(1_000)])
      for (let at = 0; at + 160 <= audio.length; at += 160)
        person.hear(audio.subarray(at, at + 160));
    expect(asked).not.toContain(-1);
  });
});
