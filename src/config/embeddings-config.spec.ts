import { ConfigError } from './config.error';
import { loadConfig } from './load-config';

const server = {
  DATABASE_URL: 'postgres://app@db:5432/switchboard',
  JWT_SECRET: 's'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('loadConfig: embeddings', () => {
  it('has no endpoint (the offline embedding) when neither URL is set', () => {
    expect(loadConfig(server).embeddings).toEqual({
      apiUrl: undefined,
      apiKey: undefined,
      model: 'text-embedding-3-small',
      timeoutMs: 30_000,
      queryTimeoutMs: 1_500,
    });
  });

  it("defaults to the chat model's URL and key", () => {
    const config = loadConfig({
      ...server,
      LLM_API_URL: 'https://llm.example/v1',
      LLM_API_KEY: 'sk-chat',
    });
    expect(config.embeddings).toMatchObject({
      apiUrl: 'https://llm.example/v1',
      apiKey: 'sk-chat',
    });
  });

  it("gives a URL of its own only its own key, never the chat model's", () => {
    const env = { ...server, LLM_API_URL: 'https://llm.example/v1', LLM_API_KEY: 'sk-chat' };
    expect(
      loadConfig({ ...env, EMBEDDINGS_API_URL: 'http://127.0.0.1:11434/v1' }).embeddings,
    ).toMatchObject({
      apiUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
    });
    expect(
      loadConfig({
        ...env,
        EMBEDDINGS_API_URL: 'https://embed.example/v1',
        EMBEDDINGS_API_KEY: 'sk-embed',
        EMBEDDINGS_MODEL: 'nomic-embed-text',
        EMBEDDINGS_TIMEOUT_MS: '5000',
        EMBEDDINGS_QUERY_TIMEOUT_MS: '250',
      }).embeddings,
    ).toEqual({
      apiUrl: 'https://embed.example/v1',
      apiKey: 'sk-embed',
      model: 'nomic-embed-text',
      timeoutMs: 5_000,
      queryTimeoutMs: 250,
    });
  });

  it('turns the endpoint off with EMBEDDINGS_API_URL=offline, even beside LLM_API_URL', () => {
    const config = loadConfig({
      ...server,
      LLM_API_URL: 'https://llm.example/v1',
      EMBEDDINGS_API_URL: 'OFFLINE',
    });
    expect(config.embeddings.apiUrl).toBeUndefined();
  });

  it.each([
    ['EMBEDDINGS_API_URL', 'ftp://embed.example'],
    ['EMBEDDINGS_QUERY_TIMEOUT_MS', '10'],
    ['EMBEDDINGS_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ ...server, [name]: value })).toThrow(ConfigError);
  });
});
