import type { CatalogueVoice } from './voice-catalogue';

export type ProcessRole = 'all' | 'api' | 'worker';

/** A bucket of AWS S3 or of an S3-compatible store (MinIO, R2, ...). */
export interface S3StorageConfig {
  bucket: string;
  /** A custom endpoint (S3-compatible stores); AWS's own endpoint for the region when unset. */
  endpoint: string | undefined;
  region: string;
  /** Static keys; unset: the AWS SDK's default chain (instance or task role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key` (MinIO and most self-hosted). */
  forcePathStyle: boolean;
}

export type SpeechToTextProvider = 'offline' | 'openai' | 'deepgram';
export type TextToSpeechProvider = 'offline' | 'openai' | 'elevenlabs';

/** A recognition engine; apiUrl, apiKey and model mean nothing to `offline`. */
export interface SpeechToTextConfig {
  provider: SpeechToTextProvider;
  apiUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** A synthesis engine; `voice` is what speaks when an agent names none. */
export interface TextToSpeechConfig {
  provider: TextToSpeechProvider;
  apiUrl: string;
  apiKey: string | undefined;
  model: string;
  voice: string;
}

/** Another OpenAI-compatible chat model that answers live calls when LLM_API_URL's fails. */
export interface ChatModelEndpoint {
  apiUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** Every setting of the service, validated once at start (see loadConfig). */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  http: {
    port: number;
    publicBaseUrl: string;
    jsonBodyLimitBytes: number;
    trustProxy: boolean;
    docsEnabled: boolean;
  };
  process: {
    role: ProcessRole;
    /**
     * On SIGTERM, how long live calls may go on before they are wound up (DRAIN_GRACE_SECONDS);
     * the orchestrator's own grace period must be longer (docs/operator.md).
     */
    drainGraceSeconds: number;
  };
  /** Where embedded-mode state lives: the PGlite data dir and generated secrets. */
  dataDir: string;
  db: {
    url: string | undefined;
    pgliteDir: string;
    /** Longest statement of a request on PostgreSQL (0: none); background work sets its own. */
    statementTimeoutMs: number;
  };
  redis: { url: string | undefined; prefix: string };
  auth: {
    jwtSecret: string;
    jwtTtlSeconds: number;
    jwtIssuer: string;
    jwtAudience: string;
    allowSignup: boolean;
    /** Attempts per e-mail from addresses that have not signed in to it (the account ceiling). */
    loginMaxPerEmail: number;
    /** Attempts per e-mail from one address. */
    loginMaxPerEmailAndAddress: number;
    /** Attempts from one address, whatever the e-mail. */
    loginMaxPerAddress: number;
    loginWindowSeconds: number;
    registerMaxPerAddress: number;
    registerWindowSeconds: number;
  };
  crypto: { encryptionKey: Buffer };
  telephony: {
    providerOneApiUrl: string;
    providerTwoApiUrl: string;
    providerThreeApiUrl: string;
    providerThreePublicKey: string | undefined;
    /**
     * Whether provider_three callbacks must carry a valid Ed25519 signature: everywhere except
     * embedded mode (no DATABASE_URL) outside production. Without the key they are then refused.
     */
    providerThreeKeyRequired: boolean;
  };
  mail: { smtpUrl: string | undefined; from: string };
  storage: {
    uploadMaxBytes: number;
    /** Root directory of the local storage driver (uploaded documents). */
    dir: string;
    /** Lifetime of a signed document URL. */
    urlTtlSeconds: number;
    /** The S3-compatible driver, chosen when STORAGE_S3_BUCKET is set (else the local one). */
    s3: S3StorageConfig | undefined;
  };
  webhooks: {
    allowPrivateTargets: boolean;
    /** Events (with their deliveries and attempt log) are kept this many days once ended. */
    retentionDays: number;
  };
  dialer: {
    /** Calls in progress at once per organization (a batch may only lower it). */
    maxConcurrentCalls: number;
    /** New calls per second per calling number. */
    callsPerSecond: number;
    /** How often the scheduler claims and places calls where jobs run; 0: never by itself. */
    tickMs: number;
    /**
     * A record is not claimed when its calling window closes within this many ms: queued at a
     * provider, the call could ring after the close. It waits for the next window instead.
     */
    lastCallMarginMs: number;
  };
  /** The messaging platform's Graph API (WhatsApp Cloud API) and its incoming events. */
  messaging: {
    apiUrl: string;
    /** Graph API version in every path, e.g. `v23.0`. */
    apiVersion: string;
    /** Signs incoming events (X-Hub-Signature-256); unset: incoming events refused. */
    appSecret: string | undefined;
    /** Answers the platform's verify handshake; unset: incoming events refused. */
    verifyToken: string | undefined;
    /** How long synchronised templates are served before the platform is asked again. */
    templateCacheSeconds: number;
    /**
     * How often a message the platform could not take (5xx, 429, no connection) is sent in all,
     * with the queue's backoff between tries; at most the queue's own attempts.
     */
    sendAttempts: number;
    /** How long processed raw webhook deliveries are kept (for replay and debugging). */
    deliveryRetentionHours: number;
    /**
     * How long a conversation must be quiet before the agent answers: the customer's messages
     * that far apart or closer are answered together, by one reply (MESSAGING_REPLY_PAUSE_MS).
     */
    replyPauseMs: number;
  };
  /** OpenAI-compatible chat completions; apiUrl unset: agents have no model (contract §7). */
  llm: {
    apiUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    /** How long to wait for the response's first byte (LLM_FIRST_BYTE_TIMEOUT_MS). */
    firstByteTimeoutMs: number;
    /** The longest silence allowed between two chunks of a stream (LLM_IDLE_TIMEOUT_MS). */
    idleTimeoutMs: number;
    /**
     * On a live call: by when the model's first token (or the fallback's) must have come, and
     * the longest silence mid-reply (LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS).
     */
    voiceFirstTokenTimeoutMs: number;
    /** LLM_FALLBACK_*: answers a live call's turn when the primary fails; unset: none. */
    fallback: ChatModelEndpoint | undefined;
  };
  /**
   * Knowledge-base embeddings: an OpenAI-compatible `POST {apiUrl}/embeddings` (EMBEDDINGS_API_URL,
   * else LLM_API_URL); apiUrl unset (or EMBEDDINGS_API_URL=offline): the offline embedding only.
   */
  embeddings: {
    apiUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    /** How long one batch of passages may take at indexing (EMBEDDINGS_TIMEOUT_MS). */
    timeoutMs: number;
    /** How long a search waits for its query's embedding (EMBEDDINGS_QUERY_TIMEOUT_MS). */
    queryTimeoutMs: number;
  };
  /** The speech engines of the voice runtime (STT_*, TTS_* and their fallbacks). */
  speech: {
    stt: SpeechToTextConfig;
    tts: TextToSpeechConfig;
    /** STT_FALLBACK_*: recognises a turn the primary failed; unset: none. */
    sttFallback: SpeechToTextConfig | undefined;
    /** TTS_FALLBACK_*: speaks a sentence the primary failed; unset: none. */
    ttsFallback: TextToSpeechConfig | undefined;
    /** By when a turn's words must be known, fallback included (STT_TURN_TIMEOUT_MS). */
    recognitionTimeoutMs: number;
    /**
     * By when a sentence's first audio must come, fallback included, and the longest gap in its
     * audio (TTS_FIRST_AUDIO_TIMEOUT_MS).
     */
    firstAudioTimeoutMs: number;
  };
  /**
   * The circuit breaker of every speech and chat engine of live calls: after `failures` failed
   * turns in a row an engine is skipped for `coolDownMs`, then tried again with one call.
   */
  engineCircuit: { failures: number; coolDownMs: number };
  /**
   * VOICE_RUNTIME: whether answered calls are connected to the media stream (when the speech
   * engines are ready too); off, they hear the provider's own speech verb and hang up.
   */
  voice: { runtime: boolean };
  /** The voices agents and video agents may use (VOICE_CATALOGUE, else the default). */
  voices: { catalogue: readonly CatalogueVoice[] };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
  /**
   * Prometheus metrics: `/metrics` on the API port for `Authorization: Bearer <token>` (off
   * when METRICS_TOKEN is unset), and/or an internal listener on `port` in every process role.
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /**
   * The organizations whose admins (and API keys) may open the queue board at /admin/queues:
   * the operator's own. The board shows every tenant's jobs, so no other admin may; none: no board.
   */
  queueBoard: { organizationIds: readonly string[] };
}
