import type { IncomingMessage, ServerResponse } from 'node:http';
import { cutAnswer, Faults, playHttpFault } from '../faults';
import { FakeServer, readBody, tonePcm } from './listen';

/** One transcription request as the fake parsed it from its multipart body. */
export interface TranscriptionRequest {
  authorization: string | undefined;
  model: string;
  language: string;
  responseFormat: string;
  fileName: string;
  /** The uploaded WAV file. */
  file: Buffer;
  /** performance.now() when the whole request had arrived. */
  receivedAt: number;
}

export interface SpeechRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** Whether the client hung up before the whole audio was sent. */
  hungUp: boolean;
  /** performance.now() when the whole request had arrived. */
  receivedAt: number;
}

/**
 * An OpenAI-compatible speech server: `/v1/audio/transcriptions` (multipart, answers `{text}`)
 * and `/v1/audio/speech` (JSON, answers raw 24 kHz 16-bit PCM streamed in 20 ms pieces).
 * Errors are OpenAI's: 401 with `{error: {message, type, code}}` for a wrong key. `faults` plays
 * an outage on the next requests (each request is recorded first, faulted or not).
 */
export class OpenAiSpeechFake {
  readonly transcriptions: TranscriptionRequest[] = [];
  readonly speeches: SpeechRequest[] = [];
  /** What the next transcriptions answer, in order; then `defaultTranscript`. */
  transcripts: string[] = [];
  defaultTranscript = '';
  /** How much audio /audio/speech streams, and how fast (0: as fast as the client reads). */
  speechMs = 500;
  speechPaceMs = 0;
  /** Error statuses, 429 with Retry-After, latency, hangs and answers cut mid-body. */
  readonly faults = new Faults();
  private tone: { ms: number; pcm: Buffer } | undefined;
  private readonly fake = new FakeServer((req, res) => void this.handle(req, res));

  constructor(private readonly apiKey: string) {}

  listen(): Promise<string> {
    return this.fake.listen();
  }

  close(): Promise<void> {
    return this.fake.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const receivedAt = performance.now();
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      return json(res, 401, {
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
      return this.transcribe(req, body, res, receivedAt);
    }
    if (req.method === 'POST' && req.url === '/v1/audio/speech')
      return this.speak(req, body, res, receivedAt);
    json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
  }

  private async transcribe(
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
    receivedAt: number,
  ) {
    const form = await new Response(body, {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob) || typeof form.get('model') !== 'string') {
      return json(res, 400, { error: { message: 'file and model are required' } });
    }
    this.transcriptions.push({
      authorization: req.headers.authorization,
      model: field(form, 'model'),
      language: field(form, 'language'),
      responseFormat: field(form, 'response_format'),
      fileName: (file as File).name,
      file: Buffer.from(await file.arrayBuffer()),
      receivedAt,
    });
    const fault = this.faults.take();
    if (await playHttpFault(fault, res, serverError)) return;
    if (fault?.kind === 'cut') {
      const body = JSON.stringify({ text: this.transcripts[0] ?? this.defaultTranscript });
      return cutAnswer(res, 'application/json', Buffer.from(body), fault.afterBytes);
    }
    json(res, 200, { text: this.transcripts.shift() ?? this.defaultTranscript });
  }

  /** The tone every synthesis answers with, made once per length: a load run asks thousands of times. */
  private speechPcm(): Buffer {
    if (this.tone?.ms !== this.speechMs)
      this.tone = { ms: this.speechMs, pcm: tonePcm(24000, this.speechMs) };
    return this.tone.pcm;
  }

  private async speak(req: IncomingMessage, raw: Buffer, res: ServerResponse, receivedAt: number) {
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const record: SpeechRequest = {
      authorization: req.headers.authorization,
      body,
      hungUp: false,
      receivedAt,
    };
    this.speeches.push(record);
    if (typeof body.input !== 'string' || typeof body.voice !== 'string') {
      return json(res, 400, { error: { message: 'input and voice are required' } });
    }
    const fault = this.faults.take();
    if (await playHttpFault(fault, res, serverError)) return;
    const pcm = this.speechPcm();
    if (fault?.kind === 'cut') return cutAnswer(res, 'audio/pcm', pcm, fault.afterBytes);
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    const piece = 960; // 20 ms at 24 kHz, 16-bit
    for (let offset = 0; offset < pcm.length; offset += piece) {
      if (res.destroyed) {
        record.hungUp = true;
        return;
      }
      res.write(pcm.subarray(offset, offset + piece));
      if (this.speechPaceMs > 0) await new Promise((r) => setTimeout(r, this.speechPaceMs));
    }
    res.end();
  }
}

/** OpenAI's error body for a status the fake was told to answer. */
const serverError = (status: number) => ({
  error: {
    message: status === 429 ? 'Rate limit reached' : 'The server had an error',
    type: status === 429 ? 'requests' : 'server_error',
    param: null,
    code: null,
  },
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
