import { ElevenLabsTextToSpeech } from '../../../src/modules/voice/speech/elevenlabs/elevenlabs-tts';
import { ElevenLabsFake } from '../../fakes/speech';
import { waitFor } from '../../support/wait-for';
import { collect, ttsSettings } from './speech-config';

const KEY = 'xi-test-key';

describe('ElevenLabs streaming synthesis against a fake ElevenLabs', () => {
  let fake: ElevenLabsFake;
  let apiUrl: string;

  beforeEach(async () => {
    fake = new ElevenLabsFake(KEY);
    apiUrl = await fake.listen();
  });
  afterEach(() => fake.close());

  const engine = (apiKey = KEY) =>
    new ElevenLabsTextToSpeech(
      ttsSettings('elevenlabs', { apiUrl, apiKey, model: 'eleven_flash_v2_5', voice: 'Rachel1' }),
    );

  it('opens with the key, sends the text, closes the input and yields the μ-law in order', async () => {
    fake.audioBytes = 4000;
    const signal = new AbortController().signal;
    const audio = await collect(
      engine().synthesize('Hello there', {
        voice: 'pNInz6obpgDQGcFmaJgB',
        language: 'en-US',
        signal,
      }),
    );

    expect(audio).toEqual(Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 256)));
    const [stream] = fake.streams;
    expect(stream.voice).toBe('pNInz6obpgDQGcFmaJgB');
    expect(stream.query.get('model_id')).toBe('eleven_flash_v2_5');
    expect(stream.messages).toEqual([
      { text: ' ', xi_api_key: KEY },
      { text: 'Hello there ' },
      { text: '' },
    ]);
    expect(stream.closedEarly).toBe(false);
  });

  it("tells the words' timings from the alignment of each chunk, asking for it", async () => {
    fake.audioBytes = 4000; // 500 ms
    fake.chunkBytes = 800; // 100 ms a chunk
    const words: Array<{ text: string; endMs: number }> = [];
    await collect(
      engine().synthesize('We open at nine', {
        voice: '',
        language: 'en-US',
        signal: new AbortController().signal,
        onWords: (timed) => words.push(...timed),
      }),
    );
    expect(fake.streams[0].query.get('sync_alignment')).toBe('true');
    expect(words.map((word) => word.text)).toEqual(['We', 'open', 'at', 'nine']);
    // 15 characters over 500 ms: each ends where its last character does, across chunks.
    expect(words.map((word) => word.endMs)).toEqual([66, 233, 333, 500]);
  });

  it('gives no timings it cannot trust: words stop at a garbled alignment, the audio does not', async () => {
    fake.audioBytes = 4000;
    fake.chunkBytes = 800;
    fake.garbledAlignment = true;
    const words: Array<{ text: string; endMs: number }> = [];
    const audio = await collect(
      engine().synthesize('We open at nine', {
        voice: '',
        language: 'en-US',
        signal: new AbortController().signal,
        onWords: (timed) => words.push(...timed),
      }),
    );
    expect(audio.length).toBe(4000);
    // The first chunk's 100 ms hold "We o": "We" is the one word it completes.
    expect(words).toEqual([{ text: 'We', endMs: 66 }]);
  });

  it('speaks the configured voice when none is named', async () => {
    const signal = new AbortController().signal;
    await collect(engine().synthesize('Hi', { voice: '', language: 'en-US', signal }));
    expect(fake.streams[0].voice).toBe('Rachel1');
  });

  it('closes the socket when aborted mid-synthesis (barge-in)', async () => {
    fake.audioBytes = 80_000;
    fake.chunkBytes = 160;
    fake.paceMs = 20;
    const controller = new AbortController();
    let bytes = 0;
    const audio = engine().synthesize('A long answer', {
      voice: '',
      language: 'en-US',
      signal: controller.signal,
    });
    for await (const chunk of audio) {
      bytes += chunk.length;
      if (bytes >= 800) controller.abort();
    }
    expect(bytes).toBeLessThan(80_000);
    await waitFor(() => fake.streams[0].closedEarly, { what: 'the fake to see the close' });
  });

  it('says the key was refused, without the key', async () => {
    const signal = new AbortController().signal;
    const error = (await collect(
      engine('xi-wrong').synthesize('Hi', { voice: '', language: 'en-US', signal }),
    ).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('ElevenLabs refused the stream (invalid_api_key)');
    expect(error.message).not.toContain('xi-wrong');
  });
});
