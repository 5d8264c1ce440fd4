import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TimedWord } from '../../../src/modules/voice/speech/speech-engines';
import { CommandError } from '../../../src/modules/voice/speech/offline/child-process';
import {
  EspeakEngine,
  espeakEngine,
} from '../../../src/modules/voice/speech/offline/espeak-engine';
import { EspeakTextToSpeech } from '../../../src/modules/voice/speech/offline/espeak-tts';
import {
  espeakReadiness,
  pocketsphinxReadiness,
} from '../../../src/modules/voice/speech/offline/offline-readiness';
import { PocketsphinxSpeechToText } from '../../../src/modules/voice/speech/offline/pocketsphinx-stt';
import { waitFor } from '../../support/wait-for';
import { collect } from './speech-config';

// The real eSpeak NG and PocketSphinx (scripts/test-all.sh installs them when missing).
const FIXTURES = join(__dirname, '../../fixtures/voice');
describe('the offline engine: eSpeak NG and PocketSphinx', () => {
  const tts = new EspeakTextToSpeech('en-us');
  const stt = new PocketsphinxSpeechToText();
  const signal = new AbortController().signal;
  afterAll(() => stt.close());

  /** Feeds μ-law to a recognition stream in 20 ms frames, as a call does, and finishes. */
  async function recognise(ulaw: Buffer): Promise<string> {
    const stream = stt.open({ language: 'en-US' });
    for (let offset = 0; offset < ulaw.length; offset += 160) {
      stream.write(ulaw.subarray(offset, offset + 160));
    }
    return stream.finish();
  }

  it('is ready here', async () => {
    await expect(espeakReadiness()).resolves.toEqual({ ready: true });
    await expect(pocketsphinxReadiness()).resolves.toEqual({ ready: true });
  });

  it('round-trips "hello world": synthesized μ-law 8 kHz is recognised', async () => {
    const audio = await collect(
      tts.synthesize('hello world', { voice: '', language: 'en-US', signal }),
    );
    // About a second of speech at 8000 bytes a second.
    expect(audio.length).toBeGreaterThan(6000);
    expect(audio.length).toBeLessThan(16000);
    const transcript = await recognise(audio);
    expect(transcript).toContain('hello');
    expect(transcript).toContain('world');
  });

  it('recognises a committed caller utterance', async () => {
    const audio = await readFile(join(FIXTURES, 'opening-hours.ulaw'));
    await expect(recognise(audio)).resolves.toMatch(/^what are your opening/);
  });

  it('recognises the sandbox dialogue word for word', async () => {
    const heard: string[] = [];
    for (const line of ['sandbox-1-hello', 'sandbox-2-question', 'sandbox-3-goodbye']) {
      heard.push(await recognise(await readFile(join(FIXTURES, `${line}.ulaw`))));
    }
    expect(heard).toEqual(['hello how are you', 'where are you located', 'okay thank you bye bye']);
  });

  it('answers turns of several calls at once, each with its own words', async () => {
    const [hello, located] = await Promise.all(
      ['hello-world', 'sandbox-2-question'].map(async (name) =>
        recognise(await readFile(join(FIXTURES, `${name}.ulaw`))),
      ),
    );
    expect(hello).toBe('hello world');
    expect(located).toBe('where are you located');
  });

  it('decodes only the speech: a turn of line silence is empty, and the words inside one are found', async () => {
    const silence = (seconds: number) => Buffer.alloc(8000 * seconds, 0xff);
    await expect(recognise(silence(4))).resolves.toBe('');
    const words = await readFile(join(FIXTURES, 'hello-world.ulaw'));
    await expect(recognise(Buffer.concat([silence(6), words, silence(1)]))).resolves.toBe(
      'hello world',
    );
  });

  it('keeps its decoders between turns and leaves nothing behind once closed', async () => {
    const own = new PocketsphinxSpeechToText(1);
    const decoderDirs = async () =>
      (await readdir(tmpdir())).filter((name) => name.startsWith('switchboard-stt-'));
    const before = await decoderDirs();
    const audio = await readFile(join(FIXTURES, 'hello-world.ulaw'));
    await expect(own.transcribe(audio)).resolves.toBe('hello world');
    const during = (await decoderDirs()).filter((name) => !before.includes(name));
    await expect(own.transcribe(audio)).resolves.toBe('hello world');
    expect((await decoderDirs()).filter((name) => !before.includes(name))).toEqual(during);
    expect(during).toHaveLength(1);
    await own.close();
    expect(await decoderDirs()).not.toContain(during[0]);
  });

  it('speaks a female variant and reads text that looks like an option as text', async () => {
    const audio = await collect(
      tts.synthesize('--help me', { voice: 'en-us+f3', language: 'en-US', signal }),
    );
    expect(audio.length).toBeGreaterThan(4000);
  });

  it('speaks a language no voice file is named after, as the command line does: en-gb, en-gb+f3', async () => {
    const say = (voice: string) =>
      collect(tts.synthesize('Hello there.', { voice, language: 'en-US', signal }));
    const [american, british, britishFemale] = await Promise.all(
      ['en-us', 'en-gb', 'en-gb+f3'].map(say),
    );
    // Each its own voice, not the agent's fallback (en-us).
    expect(british.length).toBeGreaterThan(4000);
    expect(british.equals(american)).toBe(false);
    expect(britishFemale.equals(british)).toBe(false);
    expect(britishFemale.equals(american)).toBe(false);
  });

  it('refuses a voice that is not an eSpeak NG voice name', async () => {
    await expect(
      collect(tts.synthesize('hi', { voice: '--stdout', language: 'en-US', signal })),
    ).rejects.toThrow('not an eSpeak NG voice name');
  });

  it('stops speaking when aborted (barge-in)', async () => {
    const text = 'This is a long answer that goes on. '.repeat(40);
    const whole = await collect(tts.synthesize(text, { voice: '', language: 'en-US', signal }));
    const controller = new AbortController();
    let bytes = 0;
    const audio = tts.synthesize(text, { voice: '', language: 'en-US', signal: controller.signal });
    for await (const chunk of audio) {
      bytes += chunk.length;
      controller.abort();
    }
    expect(bytes).toBeLessThan(whole.length / 2);
  });

  it("times the text's own words from eSpeak NG's events, the last ending with the audio", async () => {
    const text = 'Hello there, my friend. It costs 3.50 dollars — or an x-ray.';
    const words: TimedWord[] = [];
    const audio = await collect(
      tts.synthesize(text, {
        voice: '',
        language: 'en-US',
        signal,
        onWords: (w) => words.push(...w),
      }),
    );
    expect(words.map((word) => word.text)).toEqual(text.split(' '));
    const ends = words.map((word) => word.endMs);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(ends[0]).toBeGreaterThan(100);
    // "3.50" is read as four words: it lasts far longer than "It" before it.
    const [it, costs, price] = [4, 5, 6].map((i) => ends[i] - ends[i - 1]);
    expect(price).toBeGreaterThan(2 * Math.max(it, costs));
    // The last word ends with the audio (8 bytes of μ-law a millisecond; the end pause after it).
    expect(audio.length / 8 - ends.at(-1)!).toBeGreaterThanOrEqual(0);
    expect(audio.length / 8 - ends.at(-1)!).toBeLessThan(600);
  });

  it('speaks again in a new process when its engine is killed mid-sentence', async () => {
    const engine = await espeakEngine();
    const long = 'This is a long answer that goes on. '.repeat(300);
    const audio = tts
      .synthesize(long, { voice: '', language: 'en-US', signal })
      [Symbol.asyncIterator]();
    await audio.next();
    process.kill(engine.pid!, 'SIGKILL');
    let failure: unknown;
    try {
      while (!(await audio.next()).done);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).retryable).toBe(true);
    const again = await collect(
      tts.synthesize('hello world', { voice: '', language: 'en-US', signal }),
    );
    expect(again.length).toBeGreaterThan(6000);
    expect((await espeakEngine()).pid).not.toBe(engine.pid);
    await expect(espeakReadiness()).resolves.toEqual({ ready: true });
  });

  it('kills an engine that stops answering and fails its sentence, never waiting for ever', async () => {
    const engine = await EspeakEngine.start({ timeoutMs: 500 });
    const own = new EspeakTextToSpeech('en-us', undefined, () => Promise.resolve(engine));
    process.kill(engine.pid!, 'SIGSTOP');
    await expect(
      collect(own.synthesize('hello world', { voice: '', language: 'en-US', signal })),
    ).rejects.toThrow('eSpeak NG timed out');
    expect(engine.alive).toBe(false);
    await engine.close();
  });

  it('says its library is missing, as not to be retried', async () => {
    const failure = await EspeakEngine.start({ library: 'libespeak-ng-absent.so.1' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).message).toBe(
      'eSpeak NG is not installed (libespeak-ng-absent.so.1)',
    );
    expect((failure as CommandError).retryable).toBe(false);
  });

  it('answers an empty turn without running the recogniser', async () => {
    await expect(stt.open({ language: 'en-US' }).finish()).resolves.toBe('');
  });

  describe("a call's first seconds, against the first-turn model", () => {
    const answer = (name: string) =>
      readFile(join(__dirname, '../../fixtures/answers', `${name}.ulaw`));

    it("hears a menu's words where the general model does not", async () => {
      const menu = await answer('ivr-5'); // "… For English, press one."
      const general = await stt.transcribe(menu);
      const greeting = await stt.transcribeGreeting(menu, signal);
      expect(greeting).toMatch(/\bpress one\b/);
      expect(general).not.toMatch(/\bpress one\b/);
    });

    it('fails a greeting whose decoder is killed, and decodes the next on a new one', async () => {
      const own = new PocketsphinxSpeechToText(1);
      try {
        const menu = await answer('ivr-5');
        const others = await greetingDecoders();
        await own.transcribeGreeting(menu, signal); // started, its model loaded
        const decoding = own.transcribeGreeting(menu, signal);
        const [pid] = await waitFor(
          async () => {
            const pids = (await greetingDecoders()).filter((pid) => !others.includes(pid));
            return pids.length > 0 && pids;
          },
          { what: 'the greeting decoder' },
        );
        process.kill(pid, 'SIGKILL');
        await expect(decoding).rejects.toBeInstanceOf(CommandError);
        await expect(own.transcribeGreeting(menu, signal)).resolves.toMatch(/\bpress one\b/);
        expect(await greetingDecoders()).not.toContain(pid);
      } finally {
        await own.close();
      }
    });
  });
});

/** The pids of decoders running a first-turn model (one written into their own directory). */
async function greetingDecoders(): Promise<number[]> {
  const { stdout } = await promisify(execFile)('pgrep', [
    '-f',
    'pocketsphinx_batch.*switchboard-stt-.*model\\.lm',
  ]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter(Boolean).map(Number);
}
