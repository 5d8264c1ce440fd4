export type ProcessRole = 'all' | 'api' | 'worker';

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
  process: { role: ProcessRole };
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
    loginMaxPerEmail: number;
    loginMaxPerAddress: number;
    loginWindowSeconds: number;
  };
  crypto: { encryptionKey: Buffer };
  telephony: {
    providerOneApiUrl: string;
    providerTwoApiUrl: string;
    providerThreeApiUrl: string;
    providerThreePublicKey: string | undefined;
  };
  messaging: { apiUrl: string; appSecret: string | undefined; verifyToken: string | undefined };
  llm: { apiUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  mail: { smtpUrl: string | undefined; from: string };
  storage: { dir: string; uploadMaxBytes: number };
  webhooks: {
    allowPrivateTargets: boolean;
    /** Events (with their deliveries and attempt log) are kept this many days once ended. */
    retentionDays: number;
  };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
}
