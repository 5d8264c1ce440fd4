import WebSocket from 'ws';
import { ChatFake } from '../../fakes/chat.fake';
import { DeepgramFake, ElevenLabsFake, OpenAiSpeechFake } from '../../fakes/speech';

const KEY = 'fault-key';

/** The fault modes as a client sees them on the wire (the engines' tests use them in turn). */
describe('fault modes of the speech and chat fakes', () => {
  it('OpenAI-compatible speech: 429 with Retry-After, latency, a cut body, no answer', async () => {
    const fake = new OpenAiSpeechFake(KEY);
    const url = await fake.listen();
    const speak = (signal?: AbortSignal) =>
      fetch(`${url}/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tts-1', input: 'Hi', voice: 'alloy' }),
        signal,
      });
    try {
      fake.faults
        .next({ kind: 'status', status: 429, retryAfterSeconds: 2 })
        .next({ kind: 'latency', ms: 300 })
        .next({ kind: 'cut', afterBytes: 960 })
        .next({ kind: 'hang' });
      const limited = await speak();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('2');
      await limited.arrayBuffer();

      const started = performance.now();
      const slow = await speak();
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect((await slow.arrayBuffer()).byteLength).toBe(24_000);

      const cut = await speak();
      expect(cut.status).toBe(200);
      await expect(cut.arrayBuffer()).rejects.toThrow();

      await expect(speak(AbortSignal.timeout(300))).rejects.toThrow();
      expect(fake.faults.met).toBe(4);
      expect(fake.speeches).toHaveLength(4);
    } finally {
      await fake.close();
    }
  });

  it('chat: a stream cut after some bytes, and the scripted reply kept for the retry of a 503', async () => {
    const fake = await ChatFake.start();
    const ask = () =>
      fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
      });
    try {
      fake.faults.next({ kind: 'status', status: 503 }).next({ kind: 'cut', afterBytes: 20 });
      fake.reply({ kind: 'text', pieces: ['kept'] }, { kind: 'text', pieces: ['cut'] });
      expect((await ask()).status).toBe(503);
      const cut = await ask();
      await expect(cut.text()).rejects.toThrow();
      // The 503 left the first reply for the next request; the cut one used it.
      expect(await (await ask()).text()).toContain('"cut"');
    } finally {
      await fake.stop();
    }
  });

  it('Deepgram: an upgrade refused with Retry-After, a late Finalize answer, a socket closed mid-call', async () => {
    const fake = new DeepgramFake(KEY);
    const url = `${(await fake.listen()).replace('http', 'ws')}/listen?encoding=mulaw&sample_rate=8000`;
    const connect = () => new WebSocket(url, { headers: { authorization: `Token ${KEY}` } });
    try {
      fake.faults
        .next({ kind: 'status', status: 503, retryAfterSeconds: 1 })
        .next({ kind: 'latency', ms: 300 })
        .next({ kind: 'close', afterBytes: 320, code: 1011 });
      const refused = await new Promise<{ status?: number; retryAfter?: string }>((resolve) =>
        connect().on('unexpected-response', (_request, response) =>
          resolve({
            status: response.statusCode,
            retryAfter: response.headers['retry-after'] as string,
          }),
        ),
      );
      expect(refused).toEqual({ status: 503, retryAfter: '1' });

      const slow = connect();
      await new Promise((resolve) => slow.once('open', resolve));
      const started = performance.now();
      slow.send(Buffer.alloc(160, 0x55));
      slow.send(JSON.stringify({ type: 'Finalize' }));
      await new Promise((resolve) => slow.once('message', resolve));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      slow.close();

      const closing = connect();
      await new Promise((resolve) => closing.once('open', resolve));
      closing.send(Buffer.alloc(160, 0x55));
      closing.send(Buffer.alloc(160, 0x55));
      const code = await new Promise((resolve) => closing.once('close', resolve));
      expect(code).toBe(1011);
    } finally {
      await fake.close();
    }
  });

  it('ElevenLabs: the first audio late', async () => {
    const fake = new ElevenLabsFake(KEY);
    const base = (await fake.listen()).replace('http', 'ws');
    const url = `${base}/text-to-speech/v/stream-input?output_format=ulaw_8000`;
    try {
      fake.faults.next({ kind: 'latency', ms: 300 });
      const ws = new WebSocket(url);
      await new Promise((resolve) => ws.once('open', resolve));
      const started = performance.now();
      ws.send(JSON.stringify({ text: ' ', xi_api_key: KEY }));
      ws.send(JSON.stringify({ text: 'Hi ' }));
      ws.send(JSON.stringify({ text: '' }));
      await new Promise((resolve) => ws.once('message', resolve));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      ws.close();
    } finally {
      await fake.close();
    }
  });
});
