import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EspeakTextToSpeech } from '../../../src/modules/voice/speech/offline/espeak-tts';
import {
  espeakReadiness,
  pocketsphinxReadiness,
} from '../../../src/modules/voice/speech/offline/offline-readiness';
import { PocketsphinxSpeechToText } from '../../../src/modules/voice/speech/offline/pocketsphinx-stt';
import type { SpeechToText } from '../../../src/modules/voice/speech/speech-engines';
import { collect } from './speech-config';

// The real eSpeak NG and PocketSphinx (scripts/test-all.sh installs them when missing).
describe('the offline engine: eSpeak NG and PocketSphinx', () => {
  const tts = new EspeakTextToSpeech('en-us');
  const stt: SpeechToText = new PocketsphinxSpeechToText();
  const signal = new AbortController().signal;

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
    const audio = await readFile(join(__dirname, '../../fixtures/voice/opening-hours.ulaw'));
    await expect(recognise(audio)).resolves.toMatch(/^what are your opening/);
  });

  it('leaves no temporary file behind', async () => {
    const audio = await readFile(join(__dirname, '../../fixtures/voice/uh-huh.ulaw'));
    await recognise(audio);
    const left = (await readdir(tmpdir())).filter((name) => name.startsWith('switchboard-stt-'));
    expect(left).toEqual([]);
  });

  it('speaks a female variant and reads text that looks like an option as text', async () => {
    const audio = await collect(
      tts.synthesize('--help me', { voice: 'en-us+f3', language: 'en-US', signal }),
    );
    expect(audio.length).toBeGreaterThan(4000);
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

  it('answers an empty turn without running the recogniser', async () => {
    await expect(stt.open({ language: 'en-US' }).finish()).resolves.toBe('');
  });
});
