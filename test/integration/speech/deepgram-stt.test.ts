import { DeepgramSpeechToText } from '../../../src/modules/voice/speech/deepgram/deepgram-stt';
import { SpeechServiceError } from '../../../src/modules/voice/speech/speech-service-error';
import { DeepgramFake } from '../../fakes/speech';
import { waitFor } from '../../support/wait-for';
import { frames, sttSettings } from './speech-config';

const KEY = 'dg-test-key';

describe('Deepgram streaming recognition against a fake Deepgram', () => {
  let fake: DeepgramFake;
  let apiUrl: string;

  beforeEach(async () => {
    fake = new DeepgramFake(KEY);
    apiUrl = await fake.listen();
  });
  afterEach(() => fake.close());

  const engine = (apiKey = KEY, keepAliveMs?: number, reconnectMs?: number) =>
    new DeepgramSpeechToText(
      sttSettings('deepgram', { apiUrl, apiKey, model: 'nova-2-phonecall' }),
      { keepAliveMs, reconnectMs },
    );

  it('streams μ-law frames and answers finish with the final transcript, not the interim', async () => {
    fake.transcripts = ['what are your opening hours'];
    const stream = engine().open({ language: 'en-US' });
    for (const frame of frames(60)) stream.write(frame);

    await expect(stream.finish()).resolves.toBe('what are your opening hours');

    const [seen] = fake.streams;
    expect(Object.fromEntries(seen.query)).toEqual({
      encoding: 'mulaw',
      sample_rate: '8000',
      interim_results: 'true',
      endpointing: '300',
      utterance_end_ms: '1000',
      vad_events: 'true',
      model: 'nova-2-phonecall',
      language: 'en-US',
    });
    expect(seen.audioBytes).toBe(60 * 160);
    expect(seen.controls).toEqual(['Finalize']);
    stream.close();
    await waitFor(() => seen.closed, { what: 'the stream to close' });
    expect(seen.controls).toEqual(['Finalize', 'CloseStream']);
  });

  it("reports the utterance's interim words as they come, for the session to judge", async () => {
    fake.interim = 'my number is';
    fake.transcripts = ['my number is five five five'];
    const stream = engine().open({ language: 'en-US' });
    const heard: string[] = [];
    stream.onWords!((words) => heard.push(words));
    for (const frame of frames(60)) stream.write(frame);
    await waitFor(() => heard.length > 0, { what: 'the interim words' });
    expect(heard).toEqual(['my number is']);
    await expect(stream.finish()).resolves.toBe('my number is five five five');
    // The final that answers Finalize is the turn's, not words under way.
    expect(heard).toEqual(['my number is']);
    stream.close();
  });

  it('finishes each turn with its own words, and an empty turn without asking', async () => {
    fake.transcripts = ['yes', 'no thank you'];
    const stream = engine().open({ language: 'en-US' });
    stream.write(frames(1)[0]);
    await expect(stream.finish()).resolves.toBe('yes');
    await expect(stream.finish()).resolves.toBe('');
    stream.write(frames(1)[0]);
    await expect(stream.finish()).resolves.toBe('no thank you');
    expect(fake.streams[0].controls).toEqual(['Finalize', 'Finalize']);
    stream.close();
  });

  it('keeps an idle stream alive', async () => {
    const stream = engine(KEY, 50).open({ language: 'en-US' });
    stream.write(frames(1)[0]);
    await waitFor(() => fake.streams[0]?.controls.includes('KeepAlive'), { what: 'a KeepAlive' });
    stream.close();
  });

  it('reconnects with back-off, and gives up for the call after 12 tries that never got a word', async () => {
    fake.faults.next({ kind: 'close', afterBytes: 160 }).always({ kind: 'status', status: 503 });
    // The first retry waits 1 ms, then 2, 4 ... (5 s at most): 12 tries in about 4 s here.
    const stream = engine(KEY, undefined, 1).open({ language: 'en-US' });
    stream.write(frames(1)[0]);
    await waitFor(() => fake.faults.met === 13, {
      timeoutMs: 15_000,
      what: 'twelve reconnections',
    });
    stream.write(frames(1)[0]);
    await expect(stream.finish()).rejects.toThrow(
      new SpeechServiceError('Deepgram closed the stream and could not be reached'),
    );
    // No thirteenth try.
    expect(fake.faults.met).toBe(13);
    stream.close();
  });

  it('says the key was refused, without the key', async () => {
    const stream = engine('dg-wrong').open({ language: 'en-US' });
    stream.write(frames(1)[0]);
    const error = (await stream.finish().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SpeechServiceError);
    expect(error.message).toBe('Deepgram refused the API key (HTTP 401)');
    expect(fake.streams).toHaveLength(0);
    stream.close();
  });
});
