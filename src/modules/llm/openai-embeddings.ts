import { type OutboundResponse, sendRequest } from '../../http/outbound-request';
import { parseRetryAfter } from '../../http/retry-after';
import { describeUpstreamError, LlmError } from './llm.error';

export interface OpenAiEmbeddingsOptions {
  /** Ends before `/embeddings`, e.g. `https://api.openai.com/v1`. */
  apiUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** Inputs one request may carry (OpenAI takes 2,048; local servers often fewer). */
export const EMBEDDING_BATCH_SIZE = 64;

/**
 * An OpenAI-compatible `POST {apiUrl}/embeddings` client: one request per call, bounded by
 * `timeoutMs` from the first byte sent to the last byte read. Failures are LlmErrors (timeout,
 * unreachable, refused with the status and Retry-After, malformed) whose messages never carry
 * the key or the texts.
 */
export class OpenAiEmbeddings {
  constructor(private readonly options: OpenAiEmbeddingsOptions) {}

  get model(): string {
    return this.options.model;
  }

  /** One unit-length vector per text, in order. */
  async embed(texts: readonly string[], timeoutMs: number): Promise<Float32Array[]> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const explain = (error: unknown): unknown => {
      if (timedOut) {
        return new LlmError(
          'timeout',
          `embeddings endpoint timed out: no answer within ${timeoutMs} ms`,
        );
      }
      return error instanceof LlmError
        ? error
        : new LlmError('unreachable', 'embeddings endpoint is unreachable');
    };
    try {
      let response: OutboundResponse;
      try {
        response = await sendRequest(`${this.options.apiUrl}/embeddings`, {
          method: 'POST',
          headers: this.headers(),
          body: JSON.stringify({
            model: this.options.model,
            input: texts,
            encoding_format: 'float',
          }),
          signal: controller.signal,
        });
      } catch (error) {
        throw explain(error);
      }
      if (!response.ok) {
        const code = describeUpstreamError(await response.json().catch(() => undefined));
        throw new LlmError(
          'refused',
          `embeddings endpoint refused the request: HTTP ${response.status}${code ? ` (${code})` : ''}`,
          response.status,
          parseRetryAfter(response.header('retry-after'), new Date()),
        );
      }
      const body = await response.text().catch((error: unknown) => {
        throw explain(error);
      });
      return parseEmbeddings(body, texts.length);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }
}

/**
 * The vectors of an embeddings answer, by their `index`, each scaled to unit length: one per
 * input, all of one dimension, finite and not all zero, or the answer is malformed.
 */
export function parseEmbeddings(body: string, expected: number): Float32Array[] {
  const malformed = (what: string) =>
    new LlmError('malformed', `embeddings answer is malformed: ${what}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw malformed('not JSON');
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw malformed(`expected ${expected} embeddings`);
  }
  const vectors: Float32Array[] = new Array<Float32Array>(expected);
  let dimensions: number | undefined;
  data.forEach((item: unknown, position) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Number.isInteger(at) || at < 0 || at >= expected || vectors[at] !== undefined) {
      throw malformed('an embedding has a wrong index');
    }
    if (!Array.isArray(embedding) || embedding.length === 0) {
      throw malformed('an embedding is not a list of numbers');
    }
    dimensions ??= embedding.length;
    if (embedding.length !== dimensions) throw malformed('embeddings differ in dimensions');
    const vector = Float32Array.from(embedding as unknown[], (value) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw malformed('an embedding is not a list of numbers');
      }
      return value;
    });
    if (!normalise(vector)) throw malformed('an embedding is all zeros');
    vectors[at] = vector;
  });
  return vectors;
}

/** Scales `vector` to unit length in place; false when it has none. */
export function normalise(vector: Float32Array): boolean {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (!(sum > 0) || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i += 1) vector[i] *= scale;
  return true;
}
