import { OutboundPacer } from '../audio/outbound-pacer';
import type { MediaOutput } from '../media/media-stream';
import { HeardMarks } from './heard-marks';
import { Replies } from './replies';

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** Replies over a speech service that takes until `release()` (or an abort) for each sentence. */
function harness() {
  const heard = new HeardMarks();
  const marks: string[] = [];
  const output: MediaOutput = {
    sendAudio: () => undefined,
    sendMark: (name) => {
      marks.push(name);
      heard.add(name);
    },
    clear: () => undefined,
    close: () => undefined,
  };
  const paced = new OutboundPacer().open(output);
  const started: string[] = [];
  let release: () => void = () => undefined;
  const stored: string[] = [];
  const replies = new Replies(
    {
      paced,
      output,
      speak: (text, signal) => {
        started.push(text);
        return new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve());
          release = () => {
            paced.enqueue(Buffer.alloc(160, 1));
            resolve();
          };
        });
      },
    },
    heard,
    (_reply, text) => stored.push(text),
  );
  return { replies, started, stored, marks, release: () => release(), paced };
}

/** A reply of two sentences: the first played (its mark sent), the second being synthesized. */
async function secondSentenceUnderWay() {
  const h = harness();
  const reply = h.replies.start('reply-1');
  const said = h.replies.say(reply, ['One.', 'Two.']);
  await flush();
  h.release();
  await flush();
  await jest.advanceTimersByTimeAsync(40);
  return { h, reply, said };
}

describe('Replies', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('says a sentence cut mid-synthesis again when the reply resumes', async () => {
    const { h, reply, said } = await secondSentenceUnderWay();
    expect(h.marks).toEqual(['reply-1-1']);
    // 'Two.' is being synthesized when the caller barges in.
    h.replies.bargeIn();
    await flush();
    expect(reply.paused).toBe(true);
    expect(h.started).toEqual(['One.', 'Two.']);
    h.replies.resume();
    await flush();
    expect(h.started).toEqual(['One.', 'Two.', 'Two.']);
    h.release();
    await said;
    const finished = h.replies.finish(reply);
    await jest.advanceTimersByTimeAsync(40);
    expect(await finished).toBe(true);
    expect(h.marks).toEqual(['reply-1-1', 'reply-1-2']);
    expect(h.stored).toEqual(['One. Two.']);
    expect(h.replies.active).toBeUndefined();
  });

  it('stores only what was heard when the paused reply is interrupted for good', async () => {
    const { h, reply, said } = await secondSentenceUnderWay();
    h.replies.bargeIn();
    h.replies.interrupt();
    await said;
    expect(h.started).toEqual(['One.', 'Two.']);
    expect(await h.replies.finish(reply)).toBe(false);
    expect(h.stored).toEqual(['One.']);
  });

  it("cuts an interrupted sentence at the words the engine's timings say were played", async () => {
    const output: MediaOutput = {
      sendAudio: () => undefined,
      sendMark: () => undefined,
      clear: () => undefined,
      close: () => undefined,
    };
    const paced = new OutboundPacer().open(output);
    const stored: string[] = [];
    const replies = new Replies(
      {
        paced,
        output,
        // 400 ms of audio whose first word takes 300 ms: the length alone would say 3 words.
        speak: (_text, _signal, _onAudio, onWords) => {
          paced.enqueue(Buffer.alloc(3_200, 1));
          onWords?.([
            { text: 'Well', endMs: 300 },
            { text: 'we', endMs: 330 },
            { text: 'open', endMs: 360 },
            { text: 'at', endMs: 380 },
            { text: 'nine.', endMs: 400 },
          ]);
          return Promise.resolve();
        },
      },
      new HeardMarks(),
      (_reply, text) => stored.push(text),
    );
    const reply = replies.start('reply-1');
    await replies.say(reply, ['Well we open at nine.']);
    // 17 frames (340 ms) played: "Well we" ended, "open" not yet.
    await jest.advanceTimersByTimeAsync(330);
    replies.interrupt();
    expect(stored).toEqual(['Well we—']);
  });
});
