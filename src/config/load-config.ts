import { resolve } from 'node:path';
import { isEd25519PublicKey } from '../common/crypto/ed25519-public-key';
import { isObjectId } from '../common/object-id';
import { ConfigError } from './config.error';
import type {
  AppConfig,
  ChatModelEndpoint,
  ProcessRole,
  S3StorageConfig,
  SpeechToTextConfig,
  SpeechToTextProvider,
  TextToSpeechConfig,
  TextToSpeechProvider,
} from './config.types';
import { loadOrCreateEmbeddedSecrets } from './embedded-secrets';
import { createEnvReaders, type Env, type EnvReaders } from './env-readers';
import { loadVoiceCatalogue } from './voice-catalogue';
import { JOB_ATTEMPTS } from '../queue/jobs';

const MIB = 1024 * 1024;

/**
 * Reads and validates every variable of the service. This is the only place that looks at the
 * environment; a bad value throws a ConfigError naming the variable.
 */
export function loadConfig(env: Env, role: ProcessRole = 'all'): AppConfig {
  const read = createEnvReaders(env);
  const port = read.integer('PORT', 3000, 0, 65535);
  const dataDir = resolve(read.string('DATA_DIR', './.data'));
  const databaseUrl = read.url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const embedded = databaseUrl === undefined;
  const generated = embedded ? loadOrCreateEmbeddedSecrets(dataDir) : undefined;

  const jwtSecret = read.raw('JWT_SECRET') ?? generated?.jwtSecret;
  if (jwtSecret === undefined)
    throw new ConfigError('JWT_SECRET', 'is required when DATABASE_URL is set');
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');

  const encryptionKeyText = read.raw('ENCRYPTION_KEY') ?? generated?.encryptionKey;
  if (encryptionKeyText === undefined) {
    throw new ConfigError('ENCRYPTION_KEY', 'is required when DATABASE_URL is set');
  }
  const encryptionKey = Buffer.from(encryptionKeyText, 'base64');
  if (encryptionKey.length !== 32) {
    throw new ConfigError('ENCRYPTION_KEY', 'must be 32 bytes, base64 encoded');
  }

  const nodeEnv = read.oneOf('NODE_ENV', 'development', ['development', 'production', 'test']);
  const providerThreePublicKey = read.raw('PROVIDER_THREE_PUBLIC_KEY');
  if (providerThreePublicKey !== undefined && !isEd25519PublicKey(providerThreePublicKey)) {
    throw new ConfigError(
      'PROVIDER_THREE_PUBLIC_KEY',
      'must be a 32-byte Ed25519 key, base64 encoded',
    );
  }

  const processRole =
    role === 'worker' ? 'worker' : read.oneOf<ProcessRole>('PROCESS_ROLE', 'all', ['all', 'api']);

  return {
    env: nodeEnv,
    http: {
      port,
      publicBaseUrl: read.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:'])!,
      jsonBodyLimitBytes: read.integer('JSON_BODY_LIMIT_BYTES', MIB, 1024, 512 * MIB),
      trustProxy: read.boolean('TRUST_PROXY', false),
      docsEnabled: read.boolean('DOCS_ENABLED', true),
    },
    process: {
      role: processRole,
      drainGraceSeconds: read.integer('DRAIN_GRACE_SECONDS', 120, 0, 3_600),
    },
    dataDir,
    db: {
      url: databaseUrl,
      pgliteDir: resolve(read.string('PGLITE_DIR', `${dataDir}/pglite`)),
      statementTimeoutMs: read.integer('DB_STATEMENT_TIMEOUT_MS', 5_000, 0, 600_000),
    },
    redis: {
      url: read.url('REDIS_URL', undefined, ['redis:', 'rediss:']),
      prefix: read.string('REDIS_PREFIX', 'switchboard'),
    },
    auth: {
      jwtSecret,
      jwtTtlSeconds: read.integer('JWT_TTL_SECONDS', 3600, 60, 7 * 24 * 3600),
      jwtIssuer: read.string('JWT_ISSUER', 'switchboard'),
      jwtAudience: read.string('JWT_AUDIENCE', 'switchboard-api'),
      allowSignup: read.boolean('AUTH_ALLOW_SIGNUP', true),
      loginMaxPerEmail: read.integer('AUTH_LOGIN_MAX_PER_EMAIL', 50, 1, 1_000_000),
      loginMaxPerEmailAndAddress: read.integer(
        'AUTH_LOGIN_MAX_PER_EMAIL_AND_ADDRESS',
        5,
        1,
        10_000,
      ),
      loginMaxPerAddress: read.integer('AUTH_LOGIN_MAX_PER_ADDRESS', 100, 1, 1_000_000),
      loginWindowSeconds: read.integer('AUTH_LOGIN_WINDOW_SECONDS', 900, 1, 86_400),
      registerMaxPerAddress: read.integer('AUTH_REGISTER_MAX_PER_ADDRESS', 10, 1, 1_000_000),
      registerWindowSeconds: read.integer('AUTH_REGISTER_WINDOW_SECONDS', 3600, 1, 86_400),
    },
    crypto: { encryptionKey },
    telephony: {
      providerOneApiUrl: read.url('PROVIDER_ONE_API_URL', 'https://api.plivo.com', [
        'http:',
        'https:',
      ])!,
      providerTwoApiUrl: read.url('PROVIDER_TWO_API_URL', 'https://api.twilio.com', [
        'http:',
        'https:',
      ])!,
      providerThreeApiUrl: read.url('PROVIDER_THREE_API_URL', 'https://api.telnyx.com', [
        'http:',
        'https:',
      ])!,
      providerThreePublicKey,
      // NODE_ENV defaults to development, so a server (DATABASE_URL) needs the key whatever it says.
      providerThreeKeyRequired: nodeEnv === 'production' || !embedded,
    },
    mail: {
      smtpUrl: read.url('SMTP_URL', undefined, ['smtp:', 'smtps:']),
      from: read.string('MAIL_FROM', 'Switchboard <no-reply@switchboard.local>'),
    },
    storage: {
      uploadMaxBytes: read.integer('UPLOAD_MAX_BYTES', 20 * MIB, 1, 1024 * MIB),
      dir: storageDir(read.string('STORAGE_DIR', `${dataDir}/storage`)),
      urlTtlSeconds: read.integer('STORAGE_URL_TTL_SECONDS', 3600, 60, 7 * 24 * 3600),
      s3: s3Storage(read),
    },
    webhooks: {
      allowPrivateTargets: read.boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      retentionDays: read.integer('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    },
    dialer: {
      maxConcurrentCalls: read.integer('DIALER_MAX_CONCURRENT_CALLS', 10, 1, 100_000),
      callsPerSecond: read.integer('DIALER_CALLS_PER_SECOND', 1, 1, 1_000),
      // 0: no automatic ticks (tests drive DialerScheduler.tick() themselves).
      tickMs: read.integer('DIALER_TICK_MS', 1_000, 0, 60_000),
      lastCallMarginMs: read.integer('DIALER_LAST_CALL_MARGIN_SECONDS', 180, 0, 1_800) * 1000,
    },
    messaging: {
      apiUrl: read.url('MESSAGING_API_URL', 'https://graph.facebook.com', ['http:', 'https:'])!,
      apiVersion: graphApiVersion(read),
      appSecret: read.raw('MESSAGING_APP_SECRET'),
      verifyToken: read.raw('MESSAGING_VERIFY_TOKEN'),
      templateCacheSeconds: read.integer('MESSAGING_TEMPLATE_CACHE_SECONDS', 900, 0, 86_400),
      sendAttempts: read.integer('MESSAGING_SEND_ATTEMPTS', JOB_ATTEMPTS, 1, JOB_ATTEMPTS),
      deliveryRetentionHours: read.integer('MESSAGING_DELIVERY_RETENTION_HOURS', 72, 1, 8_760),
      replyPauseMs: read.integer('MESSAGING_REPLY_PAUSE_MS', 1_500, 0, 10_000),
    },
    llm: {
      apiUrl: read.url('LLM_API_URL', undefined, ['http:', 'https:']),
      apiKey: read.raw('LLM_API_KEY'),
      model: read.string('LLM_MODEL', 'gpt-4o-mini'),
      firstByteTimeoutMs: read.integer('LLM_FIRST_BYTE_TIMEOUT_MS', 15_000, 100, 300_000),
      idleTimeoutMs: read.integer('LLM_IDLE_TIMEOUT_MS', 10_000, 100, 300_000),
      voiceFirstTokenTimeoutMs: read.integer(
        'LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS',
        4_000,
        200,
        60_000,
      ),
      fallback: chatFallback(read),
    },
    embeddings: embeddingsSettings(read),
    speech: speechEngines(read),
    engineCircuit: {
      failures: read.integer('ENGINE_CIRCUIT_FAILURES', 3, 1, 100),
      coolDownMs: read.integer('ENGINE_CIRCUIT_COOLDOWN_MS', 30_000, 100, 3_600_000),
    },
    voice: { runtime: read.oneOf('VOICE_RUNTIME', 'on', ['on', 'off']) === 'on' },
    voices: { catalogue: loadVoiceCatalogue(read.raw('VOICE_CATALOGUE')) },
    metrics: {
      token: metricsToken(read),
      port:
        read.raw('METRICS_PORT') === undefined
          ? undefined
          : read.integer('METRICS_PORT', 0, 1, 65_535),
      host: read.string('METRICS_HOST', '127.0.0.1'),
    },
    queueBoard: { organizationIds: objectIdList(read, 'QUEUE_BOARD_ORGANIZATIONS') },
    log: {
      level: read.oneOf('LOG_LEVEL', 'info', [
        'fatal',
        'error',
        'warn',
        'info',
        'debug',
        'trace',
        'silent',
      ]),
    },
  };
}

/** A scrape token is a secret like any other: short ones are refused, not padded. */
function metricsToken(read: EnvReaders): string | undefined {
  const token = read.raw('METRICS_TOKEN');
  if (token !== undefined && token.length < 16)
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  return token;
}

/** Comma-separated record ids (24 hexadecimal digits each). */
function objectIdList(read: EnvReaders, name: string): string[] {
  const ids = (read.raw(name) ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.some((id) => !isObjectId(id))) {
    throw new ConfigError(
      name,
      'must list organization ids (24 hexadecimal digits), comma-separated',
    );
  }
  return ids;
}

function graphApiVersion(read: EnvReaders): string {
  const version = read.string('MESSAGING_API_VERSION', 'v23.0');
  if (!/^v\d{1,3}\.\d{1,3}$/.test(version))
    throw new ConfigError('MESSAGING_API_VERSION', 'must look like v23.0');
  return version;
}

/** Each engine's public API and model, the defaults of STT_* and TTS_* (contract §7). */
const STT_DEFAULTS: Record<SpeechToTextProvider, { apiUrl: string; model: string }> = {
  offline: { apiUrl: 'http://localhost', model: 'pocketsphinx-en-us' },
  openai: { apiUrl: 'https://api.openai.com/v1', model: 'whisper-1' },
  deepgram: { apiUrl: 'wss://api.deepgram.com/v1', model: 'nova-2-phonecall' },
};
const TTS_DEFAULTS: Record<TextToSpeechProvider, { apiUrl: string; model: string; voice: string }> =
  {
    offline: { apiUrl: 'http://localhost', model: 'espeak-ng', voice: 'en-us' },
    openai: { apiUrl: 'https://api.openai.com/v1', model: 'tts-1', voice: 'alloy' },
    elevenlabs: {
      apiUrl: 'wss://api.elevenlabs.io/v1',
      model: 'eleven_flash_v2_5',
      voice: '21m00Tcm4TlvDq8ikWAM',
    },
  };

const STT_PROVIDERS: readonly SpeechToTextProvider[] = ['offline', 'openai', 'deepgram'];
const TTS_PROVIDERS: readonly TextToSpeechProvider[] = ['offline', 'openai', 'elevenlabs'];
const SPEECH_PROTOCOLS = ['http:', 'https:', 'ws:', 'wss:'];

function speechEngines(read: EnvReaders): AppConfig['speech'] {
  const hasFallback = (dependency: 'STT' | 'TTS', settings: string[]) =>
    isSet(read, `${dependency}_FALLBACK_PROVIDER`, fallbackSettings(dependency, settings));
  return {
    stt: speechToText(read, 'STT'),
    tts: textToSpeech(read, 'TTS'),
    sttFallback: hasFallback('STT', ['API_URL', 'API_KEY', 'MODEL'])
      ? speechToText(read, 'STT_FALLBACK')
      : undefined,
    ttsFallback: hasFallback('TTS', ['API_URL', 'API_KEY', 'MODEL', 'VOICE'])
      ? textToSpeech(read, 'TTS_FALLBACK')
      : undefined,
    recognitionTimeoutMs: read.integer('STT_TURN_TIMEOUT_MS', 3_000, 200, 60_000),
    firstAudioTimeoutMs: read.integer('TTS_FIRST_AUDIO_TIMEOUT_MS', 3_000, 200, 60_000),
  };
}

function speechToText(read: EnvReaders, prefix: 'STT' | 'STT_FALLBACK'): SpeechToTextConfig {
  const provider = read.oneOf(`${prefix}_PROVIDER`, 'offline', STT_PROVIDERS);
  const defaults = STT_DEFAULTS[provider];
  return {
    provider,
    apiUrl: read.url(`${prefix}_API_URL`, defaults.apiUrl, SPEECH_PROTOCOLS)!,
    apiKey: read.raw(`${prefix}_API_KEY`),
    model: read.string(`${prefix}_MODEL`, defaults.model),
  };
}

function textToSpeech(read: EnvReaders, prefix: 'TTS' | 'TTS_FALLBACK'): TextToSpeechConfig {
  const provider = read.oneOf(`${prefix}_PROVIDER`, 'offline', TTS_PROVIDERS);
  const defaults = TTS_DEFAULTS[provider];
  return {
    provider,
    apiUrl: read.url(`${prefix}_API_URL`, defaults.apiUrl, SPEECH_PROTOCOLS)!,
    apiKey: read.raw(`${prefix}_API_KEY`),
    model: read.string(`${prefix}_MODEL`, defaults.model),
    voice: read.string(`${prefix}_VOICE`, defaults.voice),
  };
}

const fallbackSettings = (dependency: string, names: string[]): string[] =>
  names.map((name) => `${dependency}_FALLBACK_${name}`);

/**
 * Whether `name` is set. One of its `siblings` without it is refused rather than ignored: the
 * operator would believe a fallback is configured.
 */
function isSet(read: EnvReaders, name: string, siblings: readonly string[]): boolean {
  if (read.raw(name) !== undefined) return true;
  const stray = siblings.find((sibling) => read.raw(sibling) !== undefined);
  if (stray) throw new ConfigError(stray, `is set but ${name} is not`);
  return false;
}

/** LLM_FALLBACK_API_URL and its key and model (LLM_MODEL when unset). */
function chatFallback(read: EnvReaders): ChatModelEndpoint | undefined {
  if (!isSet(read, 'LLM_FALLBACK_API_URL', fallbackSettings('LLM', ['API_KEY', 'MODEL']))) {
    return undefined;
  }
  return {
    apiUrl: read.url('LLM_FALLBACK_API_URL', undefined, ['http:', 'https:'])!,
    apiKey: read.raw('LLM_FALLBACK_API_KEY'),
    model: read.string('LLM_FALLBACK_MODEL', read.string('LLM_MODEL', 'gpt-4o-mini')),
  };
}

/**
 * EMBEDDINGS_*: the endpoint defaults to the chat model's (LLM_API_URL, with its key: the same
 * service), `offline` turns it off. A URL of its own takes EMBEDDINGS_API_KEY only, so the chat
 * model's key never goes to another host.
 */
function embeddingsSettings(read: EnvReaders): AppConfig['embeddings'] {
  const own = read.raw('EMBEDDINGS_API_URL');
  const offline = own?.toLowerCase() === 'offline';
  const apiUrl = offline
    ? undefined
    : own !== undefined
      ? read.url('EMBEDDINGS_API_URL', undefined, ['http:', 'https:'])
      : read.url('LLM_API_URL', undefined, ['http:', 'https:']);
  return {
    apiUrl,
    apiKey: own !== undefined ? read.raw('EMBEDDINGS_API_KEY') : read.raw('LLM_API_KEY'),
    model: read.string('EMBEDDINGS_MODEL', 'text-embedding-3-small'),
    timeoutMs: read.integer('EMBEDDINGS_TIMEOUT_MS', 30_000, 100, 300_000),
    queryTimeoutMs: read.integer('EMBEDDINGS_QUERY_TIMEOUT_MS', 1_500, 50, 60_000),
  };
}

/** STORAGE_DIR, absolute: never the filesystem root, whose files deletes could then reach. */
function storageDir(value: string): string {
  if (value.includes('\0')) throw new ConfigError('STORAGE_DIR', 'must not contain a NUL byte');
  const dir = resolve(value);
  if (dir === resolve('/')) throw new ConfigError('STORAGE_DIR', 'must not be the filesystem root');
  return dir;
}

const S3_SETTINGS = [
  'STORAGE_S3_ENDPOINT',
  'STORAGE_S3_REGION',
  'STORAGE_S3_ACCESS_KEY_ID',
  'STORAGE_S3_SECRET_ACCESS_KEY',
  'STORAGE_S3_FORCE_PATH_STYLE',
] as const;

/**
 * The S3-compatible driver's settings when STORAGE_S3_BUCKET is set. Another STORAGE_S3_*
 * without the bucket is refused rather than ignored: documents would silently go to the local
 * directory instead.
 */
function s3Storage(read: EnvReaders): S3StorageConfig | undefined {
  const bucket = read.raw('STORAGE_S3_BUCKET');
  if (bucket === undefined) {
    const stray = S3_SETTINGS.find((name) => read.raw(name) !== undefined);
    if (stray) throw new ConfigError(stray, 'is set but STORAGE_S3_BUCKET is not');
    return undefined;
  }
  // S3's bucket naming rules, which the S3-compatible stores share.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(
      'STORAGE_S3_BUCKET',
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    );
  }
  const region = read.string('STORAGE_S3_REGION', 'us-east-1');
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(region)) {
    throw new ConfigError('STORAGE_S3_REGION', 'must be a region name such as us-east-1');
  }
  const accessKeyId = s3Key(read, 'STORAGE_S3_ACCESS_KEY_ID');
  const secretAccessKey = s3Key(read, 'STORAGE_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      accessKeyId === undefined ? 'STORAGE_S3_ACCESS_KEY_ID' : 'STORAGE_S3_SECRET_ACCESS_KEY',
      'is required when the other STORAGE_S3 key is set',
    );
  }
  const endpoint = read.url('STORAGE_S3_ENDPOINT', undefined, ['http:', 'https:']);
  const parsed = endpoint === undefined ? undefined : new URL(endpoint);
  if (parsed && (parsed.username !== '' || parsed.password !== '')) {
    throw new ConfigError(
      'STORAGE_S3_ENDPOINT',
      'must not carry credentials: use the KEY settings',
    );
  }
  return {
    bucket,
    endpoint,
    region,
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined
        ? { accessKeyId, secretAccessKey }
        : undefined,
    forcePathStyle: read.boolean('STORAGE_S3_FORCE_PATH_STYLE', false),
  };
}

function s3Key(read: EnvReaders, name: string): string | undefined {
  const value = read.raw(name);
  if (value !== undefined && !/^[\x21-\x7e]{1,256}$/.test(value)) {
    throw new ConfigError(name, 'must be printable ASCII without spaces, at most 256 characters');
  }
  return value;
}
