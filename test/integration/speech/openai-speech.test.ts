import { OpenAiSpeechToText } from '../../../src/modules/voice/speech/openai/openai-stt';
import { OpenAiTextToSpeech } from '../../../src/modules/voice/speech/openai/openai-tts';
import { SpeechServiceError } from '../../../src/modules/voice/speech/speech-service-error';
import { OpenAiSpeechFake } from '../../fakes/speech';
import { waitFor } from '../../support/wait-for';
import { collect, frames, sttSettings, ttsSettings } from './speech-config';

const KEY = 'sk-test-openai-key';

describe('OpenAI-compatible speech engines against a fake speech server', () => {
  let fake: OpenAiSpeechFake;
  let apiUrl: string;

  beforeEach(async () => {
    fake = new OpenAiSpeechFake(KEY);
    apiUrl = await fake.listen();
  });
  afterEach(() => fake.close());

  it('transcribes a finished utterance: WAV upload with model, language and json', async () => {
    fake.transcripts = ['yes please'];
    const stt = new OpenAiSpeechToText(
      sttSettings('openai', { apiUrl, apiKey: KEY, model: 'whisper-1' }),
    );
    const stream = stt.open({ language: 'en-US' });
    for (const frame of frames(50)) stream.write(frame);

    await expect(stream.finish()).resolves.toBe('yes please');

    const [request] = fake.transcriptions;
    expect(request).toMatchObject({ model: 'whisper-1', language: 'en', responseFormat: 'json' });
    expect(request.file.toString('ascii', 0, 4)).toBe('RIFF');
    expect(request.file.readUInt32LE(24)).toBe(8000);
    expect(request.file.length).toBe(44 + 50 * 160 * 2);
  });

  it('sends nothing for an empty or reset turn', async () => {
    const stt = new OpenAiSpeechToText(sttSettings('openai', { apiUrl, apiKey: KEY }));
    const stream = stt.open({ language: 'en-US' });
    await expect(stream.finish()).resolves.toBe('');
    for (const frame of frames(5)) stream.write(frame);
    stream.reset();
    await expect(stream.finish()).resolves.toBe('');
    expect(fake.transcriptions).toHaveLength(0);
  });

  it('says the key was refused, without the key', async () => {
    const stt = new OpenAiSpeechToText(sttSettings('openai', { apiUrl, apiKey: 'sk-wrong' }));
    const stream = stt.open({ language: 'en-US' });
    stream.write(frames(1)[0]);
    const error = (await stream.finish().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SpeechServiceError);
    expect(error.message).toMatch(/refused the API key \(HTTP 401\)/);
    expect(error.message).not.toContain('sk-wrong');
  });

  it('synthesizes 24 kHz PCM into μ-law 8 kHz as it streams', async () => {
    fake.speechMs = 500;
    const tts = new OpenAiTextToSpeech(
      ttsSettings('openai', { apiUrl, apiKey: KEY, model: 'tts-1', voice: 'alloy' }),
    );
    const signal = new AbortController().signal;
    const chunks: Buffer[] = [];
    for await (const chunk of tts.synthesize('Hello there', {
      voice: 'nova',
      language: 'en-US',
      signal,
    })) {
      chunks.push(chunk);
    }
    const audio = Buffer.concat(chunks);
    expect(fake.speeches[0].body).toEqual({
      model: 'tts-1',
      input: 'Hello there',
      voice: 'nova',
      response_format: 'pcm',
    });
    // 500 ms at 8 kHz, within the resampler's rounding.
    expect(Math.abs(audio.length - 4000)).toBeLessThanOrEqual(2);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('stops the download when the synthesis is aborted (barge-in)', async () => {
    fake.speechMs = 10_000;
    fake.speechPaceMs = 20;
    const tts = new OpenAiTextToSpeech(ttsSettings('openai', { apiUrl, apiKey: KEY }));
    const controller = new AbortController();
    let bytes = 0;
    for await (const chunk of tts.synthesize('A long answer', {
      voice: '',
      language: 'en-US',
      signal: controller.signal,
    })) {
      bytes += chunk.length;
      if (bytes >= 800) controller.abort();
    }
    expect(bytes).toBeLessThan(8000 * 5);
    expect(fake.speeches[0].body.voice).toBe('v');
    await waitFor(() => fake.speeches[0].hungUp, { what: 'the fake to see the client hang up' });
  });

  it('refuses synthesis with a wrong key', async () => {
    const tts = new OpenAiTextToSpeech(ttsSettings('openai', { apiUrl, apiKey: 'sk-wrong' }));
    const signal = new AbortController().signal;
    await expect(
      collect(tts.synthesize('Hi', { voice: 'alloy', language: 'en-US', signal })),
    ).rejects.toThrow(/OpenAI-compatible speech refused the API key \(HTTP 401\)/);
  });
});
