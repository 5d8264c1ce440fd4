import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './load-config';

const server = {
  DATABASE_URL: 'postgres://app@db:5432/switchboard',
  JWT_SECRET: 's'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

const PUBLIC_KEY = Buffer.alloc(32, 3).toString('base64');

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs on embedded defaults with nothing set, generating and keeping secrets', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.db.url).toBeUndefined();
    expect(first.redis.url).toBeUndefined();
    expect(first.db.pgliteDir).toBe(join(dataDir, 'pglite'));
    expect(first.db.statementTimeoutMs).toBe(5_000);
    expect(first.http).toMatchObject({ port: 3000, publicBaseUrl: 'http://localhost:3000' });
    expect(first.storage).toEqual({
      uploadMaxBytes: 20 * 1024 * 1024,
      dir: join(dataDir, 'storage'),
      urlTtlSeconds: 3600,
    });
    expect(first.webhooks).toEqual({ allowPrivateTargets: false, retentionDays: 30 });
    expect(first.auth.allowSignup).toBe(true);
    expect(first.crypto.encryptionKey).toHaveLength(32);
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.auth.jwtSecret).toBe(first.auth.jwtSecret);
    expect(second.crypto.encryptionKey.equals(first.crypto.encryptionKey)).toBe(true);
  });

  it('requires JWT_SECRET and ENCRYPTION_KEY when DATABASE_URL is set', () => {
    expect(() => loadConfig({ DATABASE_URL: server.DATABASE_URL, DATA_DIR: dataDir })).toThrow(
      new ConfigError('JWT_SECRET', 'is required when DATABASE_URL is set'),
    );
    expect(() => loadConfig({ ...server, ENCRYPTION_KEY: undefined, DATA_DIR: dataDir })).toThrow(
      /ENCRYPTION_KEY/,
    );
    expect(() => readFileSync(join(dataDir, 'secrets.json'))).toThrow();
  });

  it.each([
    ['PORT', 'eighty', /PORT must be a whole number/],
    ['PORT', '70000', /PORT must be between 0 and 65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must use postgres: or postgresql:/],
    ['REDIS_URL', 'not a url', /REDIS_URL must be an absolute URL/],
    ['JWT_SECRET', 'short', /JWT_SECRET must be at least 32 characters/],
    ['ENCRYPTION_KEY', Buffer.alloc(16).toString('base64'), /ENCRYPTION_KEY must be 32 bytes/],
    [
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      'maybe',
      /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/,
    ],
    ['UPLOAD_MAX_BYTES', '-1', /UPLOAD_MAX_BYTES must be a whole number/],
    ['STORAGE_DIR', '/', /STORAGE_DIR must not be the filesystem root/],
    ['STORAGE_DIR', 'a\0b', /STORAGE_DIR must not contain a NUL byte/],
    ['STORAGE_URL_TTL_SECONDS', '10', /STORAGE_URL_TTL_SECONDS must be between 60 and/],
    ['WEBHOOK_RETENTION_DAYS', '5000', /WEBHOOK_RETENTION_DAYS must be between 1 and 3650/],
    ['DB_STATEMENT_TIMEOUT_MS', '5s', /DB_STATEMENT_TIMEOUT_MS must be a whole number/],
    ['PUBLIC_BASE_URL', 'ftp://example.com', /PUBLIC_BASE_URL must use http: or https:/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['DIALER_MAX_CONCURRENT_CALLS', '999999', /DIALER_MAX_CONCURRENT_CALLS must be between 1 and/],
    ['DIALER_CALLS_PER_SECOND', '1.5', /DIALER_CALLS_PER_SECOND must be a whole number/],
    ['DIALER_TICK_MS', '-5', /DIALER_TICK_MS must be a whole number/],
    ['LLM_API_URL', 'not a url', /LLM_API_URL must be an absolute URL/],
    ['LLM_IDLE_TIMEOUT_MS', '50', /LLM_IDLE_TIMEOUT_MS must be between 100 and/],
    ['DRAIN_GRACE_SECONDS', '7200', /DRAIN_GRACE_SECONDS must be between 0 and 3600/],
    ['LLM_FIRST_BYTE_TIMEOUT_MS', '1s', /LLM_FIRST_BYTE_TIMEOUT_MS must be a whole number/],
    ['LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS', '100', /LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS must be between/],
    ['LLM_FALLBACK_API_URL', 'ws://llm.local', /LLM_FALLBACK_API_URL must use http: or https:/],
    ['STT_FALLBACK_PROVIDER', 'whisper', /STT_FALLBACK_PROVIDER must be one of/],
    ['TTS_FALLBACK_PROVIDER', 'polly', /TTS_FALLBACK_PROVIDER must be one of/],
    ['STT_TURN_TIMEOUT_MS', '70000', /STT_TURN_TIMEOUT_MS must be between 200 and/],
    ['TTS_FIRST_AUDIO_TIMEOUT_MS', '2s', /TTS_FIRST_AUDIO_TIMEOUT_MS must be a whole number/],
    ['ENGINE_CIRCUIT_FAILURES', '500', /ENGINE_CIRCUIT_FAILURES must be between 1 and/],
    ['ENGINE_CIRCUIT_COOLDOWN_MS', '5', /ENGINE_CIRCUIT_COOLDOWN_MS must be between 100 and/],
    ['SMTP_URL', 'http://mail', /SMTP_URL must use smtp: or smtps:/],
    ['VOICE_CATALOGUE', '/no/such/voices.json', /VOICE_CATALOGUE must name a readable JSON file/],
    [
      'PROVIDER_THREE_PUBLIC_KEY',
      Buffer.alloc(16, 3).toString('base64'),
      /PROVIDER_THREE_PUBLIC_KEY must be a 32-byte Ed25519 key/,
    ],
  ])('names %s when its value %p is invalid, without echoing it', (variable, value, message) => {
    const attempt = () => loadConfig({ ...server, DATA_DIR: dataDir, [variable]: value });
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain(value);
    }
  });

  describe('S3 storage', () => {
    const bucket = { ...server, STORAGE_S3_BUCKET: 'switchboard-docs' };
    const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

    it('stays on the local directory without STORAGE_S3_BUCKET', () => {
      expect(loadConfig({ ...server }).storage.s3).toBeUndefined();
    });

    it('reads the bucket, endpoint, region, keys and path style', () => {
      expect(
        loadConfig({
          ...bucket,
          STORAGE_S3_ENDPOINT: 'http://minio:9000/',
          STORAGE_S3_REGION: 'eu-west-3',
          STORAGE_S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
          STORAGE_S3_SECRET_ACCESS_KEY: SECRET,
          STORAGE_S3_FORCE_PATH_STYLE: 'true',
        }).storage.s3,
      ).toEqual({
        bucket: 'switchboard-docs',
        endpoint: 'http://minio:9000',
        region: 'eu-west-3',
        credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: SECRET },
        forcePathStyle: true,
      });
      expect(loadConfig(bucket).storage.s3).toEqual({
        bucket: 'switchboard-docs',
        endpoint: undefined,
        region: 'us-east-1',
        credentials: undefined,
        forcePathStyle: false,
      });
    });

    it.each([
      ['STORAGE_S3_BUCKET', 'My_Bucket', /STORAGE_S3_BUCKET must be a bucket name/],
      ['STORAGE_S3_BUCKET', 'a..b', /STORAGE_S3_BUCKET must be a bucket name/],
      ['STORAGE_S3_ENDPOINT', 'minio:9000', /STORAGE_S3_ENDPOINT must use http: or https:/],
      ['STORAGE_S3_ENDPOINT', 'http://key:hunter2@minio:9000', /must not carry credentials/],
      ['STORAGE_S3_REGION', 'EU West', /STORAGE_S3_REGION must be a region name/],
      ['STORAGE_S3_FORCE_PATH_STYLE', 'sometimes', /STORAGE_S3_FORCE_PATH_STYLE must be true/],
      [
        'STORAGE_S3_SECRET_ACCESS_KEY',
        `${SECRET} x`,
        /STORAGE_S3_SECRET_ACCESS_KEY must be printable ASCII/,
      ],
    ])('names %s when its value %p is invalid, without echoing it', (variable, value, message) => {
      const attempt = () => loadConfig({ ...bucket, [variable]: value });
      expect(attempt).toThrow(message);
      expect(attempt).not.toThrow(value);
    });

    it('needs both keys or neither, naming the missing one', () => {
      expect(() => loadConfig({ ...bucket, STORAGE_S3_SECRET_ACCESS_KEY: SECRET })).toThrow(
        new ConfigError(
          'STORAGE_S3_ACCESS_KEY_ID',
          'is required when the other STORAGE_S3 key is set',
        ),
      );
      expect(() =>
        loadConfig({ ...bucket, STORAGE_S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE' }),
      ).toThrow(/STORAGE_S3_SECRET_ACCESS_KEY is required/);
    });

    it.each(['STORAGE_S3_ENDPOINT', 'STORAGE_S3_SECRET_ACCESS_KEY', 'STORAGE_S3_FORCE_PATH_STYLE'])(
      'refuses %s without STORAGE_S3_BUCKET rather than storing files locally',
      (variable) => {
        expect(() => loadConfig({ ...server, [variable]: 'http://minio:9000' })).toThrow(
          new ConfigError(variable, 'is set but STORAGE_S3_BUCKET is not'),
        );
      },
    );
  });

  it.each([
    [{}, false],
    [{ NODE_ENV: 'test' }, false],
    [{ NODE_ENV: 'production' }, true],
    [{ DATABASE_URL: server.DATABASE_URL }, true],
    [{ DATABASE_URL: server.DATABASE_URL, NODE_ENV: 'development' }, true],
    [{ DATABASE_URL: server.DATABASE_URL, NODE_ENV: 'test' }, true],
  ])(
    'requires signed provider_three callbacks outside embedded mode or in production: %p → %p',
    (env, required) => {
      const config = loadConfig({
        JWT_SECRET: server.JWT_SECRET,
        ENCRYPTION_KEY: server.ENCRYPTION_KEY,
        DATA_DIR: dataDir,
        ...env,
      });
      expect(config.telephony.providerThreeKeyRequired).toBe(required);
    },
  );

  it('reads every documented variable', () => {
    const config = loadConfig({
      ...server,
      PORT: '8080',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_BASE_URL: 'https://calls.example.com/',
      PROVIDER_ONE_API_URL: 'http://127.0.0.1:9001',
      PROVIDER_TWO_API_URL: 'http://127.0.0.1:9002',
      PROVIDER_THREE_API_URL: 'http://127.0.0.1:9003',
      PROVIDER_THREE_PUBLIC_KEY: PUBLIC_KEY,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'ops@example.com',
      UPLOAD_MAX_BYTES: '1024',
      STORAGE_DIR: '/srv/switchboard/files',
      STORAGE_URL_TTL_SECONDS: '600',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      AUTH_ALLOW_SIGNUP: 'false',
      PROCESS_ROLE: 'api',
      DIALER_MAX_CONCURRENT_CALLS: '25',
      DIALER_CALLS_PER_SECOND: '3',
      DIALER_TICK_MS: '250',
      DIALER_LAST_CALL_MARGIN_SECONDS: '600',
      LLM_API_URL: 'http://127.0.0.1:11434/v1/',
      LLM_API_KEY: 'sk-local',
      LLM_MODEL: 'llama3.1',
      LLM_FIRST_BYTE_TIMEOUT_MS: '2000',
      LLM_IDLE_TIMEOUT_MS: '1500',
    });
    expect(config.http).toMatchObject({ port: 8080, publicBaseUrl: 'https://calls.example.com' });
    expect(config.redis.url).toBe('redis://cache:6379');
    expect(config.telephony).toEqual({
      providerOneApiUrl: 'http://127.0.0.1:9001',
      providerTwoApiUrl: 'http://127.0.0.1:9002',
      providerThreeApiUrl: 'http://127.0.0.1:9003',
      providerThreePublicKey: PUBLIC_KEY,
      providerThreeKeyRequired: true,
    });
    expect(config.mail).toEqual({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'ops@example.com' });
    expect(config.storage).toEqual({
      uploadMaxBytes: 1024,
      dir: '/srv/switchboard/files',
      urlTtlSeconds: 600,
    });
    expect(config.webhooks.allowPrivateTargets).toBe(true);
    expect(config.auth.allowSignup).toBe(false);
    expect(config.process.role).toBe('api');
    expect(config.dialer).toEqual({
      maxConcurrentCalls: 25,
      callsPerSecond: 3,
      tickMs: 250,
      lastCallMarginMs: 600_000,
    });
    expect(config.llm).toEqual({
      apiUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-local',
      model: 'llama3.1',
      firstByteTimeoutMs: 2000,
      idleTimeoutMs: 1500,
      voiceFirstTokenTimeoutMs: 4000,
      fallback: undefined,
    });
    expect(loadConfig({ ...server }).dialer).toEqual({
      maxConcurrentCalls: 10,
      callsPerSecond: 1,
      tickMs: 1000,
      lastCallMarginMs: 180_000,
    });
    expect(loadConfig({ ...server, PROCESS_ROLE: 'api' }, 'worker').process.role).toBe('worker');
  });

  describe('fallback engines and the deadlines of live calls', () => {
    it('has none by default, with deadlines of a few seconds and a circuit of 3 failures / 30 s', () => {
      const config = loadConfig({ ...server });
      expect(config.speech).toMatchObject({
        sttFallback: undefined,
        ttsFallback: undefined,
        recognitionTimeoutMs: 3_000,
        firstAudioTimeoutMs: 3_000,
      });
      expect(config.llm).toMatchObject({ fallback: undefined, voiceFirstTokenTimeoutMs: 4_000 });
      expect(config.engineCircuit).toEqual({ failures: 3, coolDownMs: 30_000 });
    });

    it('reads each fallback with the defaults of its provider, the offline engine included', () => {
      const config = loadConfig({
        ...server,
        STT_PROVIDER: 'deepgram',
        STT_FALLBACK_PROVIDER: 'offline',
        TTS_PROVIDER: 'elevenlabs',
        TTS_FALLBACK_PROVIDER: 'openai',
        TTS_FALLBACK_API_URL: 'http://127.0.0.1:8880/v1/',
        TTS_FALLBACK_API_KEY: 'sk-tts-fallback',
        TTS_FALLBACK_VOICE: 'af_bella',
        LLM_MODEL: 'gpt-4o',
        LLM_FALLBACK_API_URL: 'http://127.0.0.1:11434/v1',
        STT_TURN_TIMEOUT_MS: '2500',
        TTS_FIRST_AUDIO_TIMEOUT_MS: '1500',
        LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS: '3000',
        ENGINE_CIRCUIT_FAILURES: '5',
        ENGINE_CIRCUIT_COOLDOWN_MS: '10000',
      });
      expect(config.speech.sttFallback).toEqual({
        provider: 'offline',
        apiUrl: 'http://localhost',
        apiKey: undefined,
        model: 'pocketsphinx-en-us',
      });
      expect(config.speech.ttsFallback).toEqual({
        provider: 'openai',
        apiUrl: 'http://127.0.0.1:8880/v1',
        apiKey: 'sk-tts-fallback',
        model: 'tts-1',
        voice: 'af_bella',
      });
      expect(config.speech).toMatchObject({
        recognitionTimeoutMs: 2500,
        firstAudioTimeoutMs: 1500,
      });
      // The fallback model is the primary's name unless LLM_FALLBACK_MODEL says otherwise.
      expect(config.llm.fallback).toEqual({
        apiUrl: 'http://127.0.0.1:11434/v1',
        apiKey: undefined,
        model: 'gpt-4o',
      });
      expect(config.llm.voiceFirstTokenTimeoutMs).toBe(3000);
      expect(config.engineCircuit).toEqual({ failures: 5, coolDownMs: 10_000 });
      expect(
        loadConfig({
          ...server,
          LLM_FALLBACK_API_URL: 'https://llm.example/v1',
          LLM_FALLBACK_API_KEY: 'sk-fallback',
          LLM_FALLBACK_MODEL: 'llama3.1',
        }).llm.fallback,
      ).toEqual({ apiUrl: 'https://llm.example/v1', apiKey: 'sk-fallback', model: 'llama3.1' });
    });

    it.each([
      ['STT_FALLBACK_API_KEY', 'STT_FALLBACK_PROVIDER'],
      ['TTS_FALLBACK_VOICE', 'TTS_FALLBACK_PROVIDER'],
      ['LLM_FALLBACK_MODEL', 'LLM_FALLBACK_API_URL'],
    ])('refuses %s without %s rather than running without a fallback', (variable, needed) => {
      expect(() => loadConfig({ ...server, [variable]: 'x' })).toThrow(
        new ConfigError(variable, `is set but ${needed} is not`),
      );
    });
  });

  it('names the queue board organizations in QUEUE_BOARD_ORGANIZATIONS (none: no board)', () => {
    expect(loadConfig({ ...server }).queueBoard).toEqual({ organizationIds: [] });
    const ids = ['6b09fd21bdb0151823d805a8', '6b09fd21bdb0151823d805a9'];
    expect(
      loadConfig({ ...server, QUEUE_BOARD_ORGANIZATIONS: ` ${ids[0]}, ${ids[1]},` }).queueBoard,
    ).toEqual({ organizationIds: ids });
    expect(() => loadConfig({ ...server, QUEUE_BOARD_ORGANIZATIONS: 'ops' })).toThrow(
      new ConfigError(
        'QUEUE_BOARD_ORGANIZATIONS',
        'must list organization ids (24 hexadecimal digits), comma-separated',
      ),
    );
  });

  it('connects calls to the voice runtime unless VOICE_RUNTIME is off', () => {
    expect(loadConfig({ ...server }).voice).toEqual({ runtime: true });
    expect(loadConfig({ ...server, VOICE_RUNTIME: 'off' }).voice).toEqual({ runtime: false });
    expect(() => loadConfig({ ...server, VOICE_RUNTIME: 'false' })).toThrow(
      new ConfigError('VOICE_RUNTIME', 'must be one of on, off'),
    );
  });

  it('reads the messaging platform settings, with the Graph version validated', () => {
    expect(loadConfig({ ...server }).messaging).toEqual({
      apiUrl: 'https://graph.facebook.com',
      apiVersion: 'v23.0',
      appSecret: undefined,
      verifyToken: undefined,
      templateCacheSeconds: 900,
      sendAttempts: 5,
      deliveryRetentionHours: 72,
      replyPauseMs: 1_500,
    });
    const config = loadConfig({
      ...server,
      MESSAGING_API_URL: 'http://127.0.0.1:9004/',
      MESSAGING_API_VERSION: 'v25.0',
      MESSAGING_APP_SECRET: 'app-secret',
      MESSAGING_VERIFY_TOKEN: 'verify',
      MESSAGING_TEMPLATE_CACHE_SECONDS: '60',
      MESSAGING_SEND_ATTEMPTS: '2',
      MESSAGING_DELIVERY_RETENTION_HOURS: '24',
      MESSAGING_REPLY_PAUSE_MS: '0',
    });
    expect(config.messaging).toEqual({
      apiUrl: 'http://127.0.0.1:9004',
      apiVersion: 'v25.0',
      appSecret: 'app-secret',
      verifyToken: 'verify',
      templateCacheSeconds: 60,
      sendAttempts: 2,
      deliveryRetentionHours: 24,
      replyPauseMs: 0,
    });
    // More tries than the queue makes could never happen.
    expect(() => loadConfig({ ...server, MESSAGING_SEND_ATTEMPTS: '6' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...server, MESSAGING_API_VERSION: '23' })).toThrow(
      new ConfigError('MESSAGING_API_VERSION', 'must look like v23.0'),
    );
    expect(() => loadConfig({ ...server, MESSAGING_API_URL: 'ftp://graph' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...server, MESSAGING_DELIVERY_RETENTION_HOURS: '0' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...server, MESSAGING_REPLY_PAUSE_MS: '10001' })).toThrow(ConfigError);
  });

  it('reads the metrics settings: off by default, a short token refused', () => {
    expect(loadConfig({ ...server }).metrics).toEqual({
      token: undefined,
      port: undefined,
      host: '127.0.0.1',
    });
    expect(
      loadConfig({
        ...server,
        METRICS_TOKEN: 'a-scrape-token-of-32-characters!',
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
      }).metrics,
    ).toEqual({ token: 'a-scrape-token-of-32-characters!', port: 9464, host: '0.0.0.0' });
    expect(() => loadConfig({ ...server, METRICS_TOKEN: 'short' })).toThrow(
      new ConfigError('METRICS_TOKEN', 'must be at least 16 characters'),
    );
    expect(() => loadConfig({ ...server, METRICS_PORT: '70000' })).toThrow(
      new ConfigError('METRICS_PORT', 'must be between 1 and 65535'),
    );
  });
});
