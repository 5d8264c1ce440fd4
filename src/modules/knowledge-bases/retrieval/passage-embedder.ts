import { Injectable, Logger } from '@nestjs/common';
import { EngineCircuit } from '../../../common/failover/engine-circuit';
import { type AppConfig, InjectConfig } from '../../../config';
import { LlmError } from '../../llm/llm.error';
import { EMBEDDING_BATCH_SIZE, OpenAiEmbeddings } from '../../llm/openai-embeddings';
import { embeddingSignature } from './embedding-signature';
import { LOCAL_EMBEDDING_MODEL, localEmbedding } from './local-embedding';

/** A text's embedding, tagged with what made it: vectors of different models never meet. */
export interface TextEmbedding {
  model: string;
  vector: Float32Array;
  /** SimHash bits as PostgreSQL bit-string text. */
  signature: string;
}

/** Tries of one batch of passages at indexing (the first included), for timeouts, 429 and 5xx. */
const BATCH_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [500, 2_000];
/** The longest Retry-After honoured at indexing; longer, the offline embedding is used. */
const MAX_RETRY_AFTER_MS = 10_000;
/** Queries whose endpoint embedding is kept (a search of several bases embeds once). */
const QUERY_CACHE_SIZE = 256;
const QUERY_CACHE_MS = 60_000;

/** `api:` before the endpoint's model name, so that no model can pass for the offline one. */
const endpointModelTag = (model: string) => `api:${model}`;

/**
 * Embeds passages when a document is indexed and questions when a base is searched: through the
 * OpenAI-compatible embeddings endpoint when one is configured (EMBEDDINGS_API_URL, else
 * LLM_API_URL), else with the offline embedding. The endpoint never fails either: a document it
 * cannot embed (after retries) is embedded offline, and a search whose question it cannot embed
 * in time ranks by its words and the offline embedding. Its circuit breaker (ENGINE_CIRCUIT_*)
 * skips it while it keeps failing, so no search waits for a service known to be down.
 */
@Injectable()
export class PassageEmbedder {
  private readonly logger = new Logger('KnowledgeBases');
  private readonly endpoint: OpenAiEmbeddings | undefined;
  private readonly circuit: EngineCircuit;
  private readonly queryTimeoutMs: number;
  private readonly batchTimeoutMs: number;
  private readonly queries = new Map<string, { vector: Promise<TextEmbedding>; until: number }>();

  constructor(@InjectConfig() { embeddings, engineCircuit }: AppConfig) {
    this.endpoint =
      embeddings.apiUrl === undefined
        ? undefined
        : new OpenAiEmbeddings({ ...embeddings, apiUrl: embeddings.apiUrl });
    this.circuit = new EngineCircuit(engineCircuit);
    this.queryTimeoutMs = embeddings.queryTimeoutMs;
    this.batchTimeoutMs = embeddings.timeoutMs;
  }

  /** The model tag of the endpoint's embeddings; undefined when only the offline one is used. */
  get endpointModel(): string | undefined {
    return this.endpoint && endpointModelTag(this.endpoint.model);
  }

  /**
   * One embedding per passage, all from one model: the endpoint's, or the offline embedding's
   * when there is none or it failed on any batch (after retries) — a document half embedded by
   * each would be searched through two rankings that cannot be compared.
   */
  async embedPassages(texts: readonly string[]): Promise<TextEmbedding[]> {
    if (this.endpoint && texts.length > 0) {
      const vectors = await this.endpointVectors(this.endpoint, texts);
      if (vectors)
        return vectors.map((vector) => tagged(endpointModelTag(this.endpoint!.model), vector));
    }
    return texts.map(offlineEmbedding);
  }

  /**
   * The question's embeddings to search with: the offline one always (it is cheap, and finds
   * passages indexed offline), and the endpoint's when it answers within
   * EMBEDDINGS_QUERY_TIMEOUT_MS (or the caller's shorter `timeoutMs`). Never throws.
   */
  async embedQuery(text: string, timeoutMs?: number): Promise<TextEmbedding[]> {
    const offline = offlineEmbedding(text);
    if (!this.endpoint) return [offline];
    const fromEndpoint = await this.queryVector(
      this.endpoint,
      text,
      Math.min(timeoutMs ?? this.queryTimeoutMs, this.queryTimeoutMs),
    );
    return fromEndpoint ? [fromEndpoint, offline] : [offline];
  }

  private async queryVector(
    endpoint: OpenAiEmbeddings,
    text: string,
    timeoutMs: number,
  ): Promise<TextEmbedding | undefined> {
    const now = performance.now();
    const cached = this.queries.get(text);
    if (cached && cached.until > now) return cached.vector.catch(() => undefined);
    if (!this.circuit.take()) return undefined;
    const vector = endpoint
      .embed([text], timeoutMs)
      .then(([embedded]) => tagged(endpointModelTag(endpoint.model), embedded));
    this.remember(text, vector, now);
    try {
      const embedded = await vector;
      this.circuit.succeeded();
      return embedded;
    } catch (error) {
      this.queries.delete(text);
      this.circuit.failed();
      this.warn(
        error,
        'Embeddings endpoint failed: this search ranks by words and the offline embedding',
      );
      return undefined;
    }
  }

  private remember(text: string, vector: Promise<TextEmbedding>, now: number): void {
    this.queries.delete(text);
    if (this.queries.size >= QUERY_CACHE_SIZE) {
      const oldest = this.queries.keys().next();
      if (!oldest.done) this.queries.delete(oldest.value);
    }
    this.queries.set(text, { vector, until: now + QUERY_CACHE_MS });
  }

  /** Every text's vector from the endpoint, batch by batch; undefined once a batch fails for good. */
  private async endpointVectors(
    endpoint: OpenAiEmbeddings,
    texts: readonly string[],
  ): Promise<Float32Array[] | undefined> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += EMBEDDING_BATCH_SIZE) {
      const batch = await this.endpointBatch(
        endpoint,
        texts.slice(start, start + EMBEDDING_BATCH_SIZE),
      );
      if (!batch) return undefined;
      vectors.push(...batch);
    }
    return vectors;
  }

  private async endpointBatch(
    endpoint: OpenAiEmbeddings,
    texts: readonly string[],
  ): Promise<Float32Array[] | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      if (!this.circuit.take()) {
        this.logger.warn(
          'Embeddings endpoint skipped while it keeps failing: document embedded offline',
        );
        return undefined;
      }
      try {
        const vectors = await endpoint.embed(texts, this.batchTimeoutMs);
        this.circuit.succeeded();
        return vectors;
      } catch (error) {
        this.circuit.failed();
        const wait = retryDelay(error, attempt);
        if (wait === undefined) {
          this.warn(error, 'Embeddings endpoint failed: document embedded offline');
          return undefined;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** The error's kind, status and message (LlmError messages carry no key and no text). */
  private warn(error: unknown, message: string): void {
    const details =
      error instanceof LlmError
        ? { kind: error.kind, status: error.status, reason: error.message }
        : { reason: 'unexpected error' };
    this.logger.warn({ ...details }, message);
  }
}

function tagged(model: string, vector: Float32Array): TextEmbedding {
  return { model, vector, signature: embeddingSignature(vector) };
}

function offlineEmbedding(text: string): TextEmbedding {
  return tagged(LOCAL_EMBEDDING_MODEL, localEmbedding(text));
}

/** How long to wait before trying a failed batch again; undefined: do not. */
function retryDelay(error: unknown, attempt: number): number | undefined {
  if (attempt >= BATCH_ATTEMPTS || !(error instanceof LlmError) || !error.retryable)
    return undefined;
  const asked = error.retryAfterMs;
  if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
  return RETRY_DELAYS_MS[attempt - 1];
}
