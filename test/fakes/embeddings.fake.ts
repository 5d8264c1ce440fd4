import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cutAnswer, cutAt, Faults, playHttpFault } from './faults';

export interface ReceivedEmbeddingsRequest {
  headers: IncomingMessage['headers'];
  model: unknown;
  input: string[];
}

/** What the fake answers instead of embeddings, besides the shared faults. */
export type EmbeddingsAnswer = 'embeddings' | 'garbage' | 'wrong-count' | 'not-numbers';

/** The dimensions of the fake's vectors (a real model has hundreds or thousands). */
export const FAKE_EMBEDDING_DIMENSIONS = 64;

/**
 * A local OpenAI-compatible `POST /v1/embeddings`: `{ model, input }` in, `{ object: 'list',
 * data: [{ object: 'embedding', index, embedding }], model, usage }` out. Its vectors are
 * deterministic bags of words (each lower-cased word hashed to one of 64 dimensions), so texts
 * sharing words are close — another space than Switchboard's offline embedding. Faults (error
 * statuses with Retry-After, latency, hangs, cut answers) and malformed answers on demand.
 */
export class EmbeddingsFake {
  readonly requests: ReceivedEmbeddingsRequest[] = [];
  readonly faults = new Faults();
  /** What well-formed requests get (after any fault). */
  answer: EmbeddingsAnswer = 'embeddings';
  private readonly stalled = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<EmbeddingsFake> {
    const handlers: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
    const server = createServer((req, res) => void handlers.handle?.(req, res));
    const fake = new EmbeddingsFake(server);
    handlers.handle = (req, res) => fake.handle(req, res);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The base URL to configure as EMBEDDINGS_API_URL (ends before `/embeddings`). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** The texts of every request, in order. */
  get inputs(): string[] {
    return this.requests.flatMap((request) => request.input);
  }

  async stop(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      sendJson(res, 404, openAiError('not_found'));
      return;
    }
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      sendJson(res, 400, openAiError('invalid_request_error'));
      return;
    }
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || !input.every((text) => typeof text === 'string')) {
      sendJson(res, 400, openAiError('invalid_request_error'));
      return;
    }
    this.requests.push({ headers: req.headers, model: body.model, input: input });
    const fault = this.faults.take();
    if (fault?.kind === 'hang') this.stalled.add(res);
    if (
      await playHttpFault(fault, res, (status) =>
        openAiError(status === 429 ? 'rate_limit_exceeded' : 'server_error'),
      )
    ) {
      return;
    }
    const answer = this.body(input, body.model);
    const cut = cutAt(fault);
    if (cut !== Infinity) {
      cutAnswer(res, 'application/json', Buffer.from(answer), cut);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  }

  private body(input: string[], model: unknown): string {
    switch (this.answer) {
      case 'garbage':
        return '<html>upstream proxy error</html>';
      case 'wrong-count':
        return JSON.stringify({ object: 'list', data: [], model });
      case 'not-numbers':
        return JSON.stringify({
          object: 'list',
          data: input.map((_, index) => ({ object: 'embedding', index, embedding: ['x'] })),
          model,
        });
      case 'embeddings':
        return JSON.stringify({
          object: 'list',
          data: input.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: bagOfWords(text),
          })),
          model,
          usage: { prompt_tokens: input.join(' ').length, total_tokens: input.join(' ').length },
        });
    }
  }
}

/** Each word adds 1 to one dimension chosen by its hash; not normalised (the client must). */
export function bagOfWords(text: string): number[] {
  const vector: number[] = Array.from({ length: FAKE_EMBEDDING_DIMENSIONS }, () => 0);
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    vector[createHash('sha1').update(word).digest().readUInt32BE(0) % FAKE_EMBEDDING_DIMENSIONS] +=
      1;
  }
  // A text with no word still gets a vector, as a real model's would.
  if (!vector.some((value) => value !== 0)) vector[0] = 1;
  return vector;
}

function openAiError(code: string) {
  return { error: { message: 'The fake embeddings service refused', type: code, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
