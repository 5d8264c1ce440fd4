import { freePort } from '../../support/free-port';
import { LogCapture } from '../../support/log-capture';
import { startTestApp, type TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait-for';

const TOKEN = 'metrics-token-0123456789abcdef';
const STT_KEY = 'sk-stt-canary-7731';

// Readiness that knows: an engine whose service cannot be reached, or a fallback that cannot
// run, is warned of at start and shows as failing in /metrics, while /health/ready stays 200
// (a speech vendor's outage must not take the API and the provider callbacks down with it).
describe('the health of the engines of live calls', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let closedUrl: string;

  beforeAll(async () => {
    closedUrl = `http://127.0.0.1:${await freePort()}/v1`;
    t = await startTestApp({
      env: {
        LOG_LEVEL: 'info',
        METRICS_TOKEN: TOKEN,
        STT_PROVIDER: 'openai',
        STT_API_URL: closedUrl,
        STT_API_KEY: STT_KEY,
        STT_FALLBACK_PROVIDER: 'deepgram',
        TTS_PROVIDER: 'offline',
        LLM_API_URL: closedUrl,
        LLM_API_KEY: 'sk-llm',
      },
      logStream: logs,
    });
  });
  afterAll(() => t.close());

  const warnings = () =>
    logs.lines.filter((line) => line.level === 40).map((line) => String(line.msg));

  it('warns at start of an engine that cannot be reached and a fallback that cannot run, naming no URL or key', async () => {
    const expected = [
      'STT primary engine openai cannot be reached (ECONNREFUSED)',
      'STT fallback engine deepgram cannot run: STT_FALLBACK_API_KEY is not set (STT_FALLBACK_PROVIDER=deepgram)',
      'LLM primary engine openai-compatible cannot be reached (ECONNREFUSED)',
    ];
    await waitFor(() => expected.every((line) => warnings().includes(line)), {
      what: 'the engine warnings',
    });
    expect(logs.text).not.toContain(STT_KEY);
    expect(logs.text).not.toContain(`:${new URL(closedUrl).port}`);
  });

  it('shows each engine state in /metrics and stays ready', async () => {
    const series = async () =>
      (
        await t.http
          .get('/metrics')
          .set({ Authorization: `Bearer ${TOKEN}` })
          .expect(200)
      ).text;
    const failing = (labels: string) =>
      `switchboard_engine_state{dependency="${labels}",state="failing"} 1`;
    await waitFor(
      async () => {
        const text = await series();
        return (
          text.includes(failing('stt",role="primary",engine="openai')) &&
          text.includes(failing('stt",role="fallback",engine="deepgram')) &&
          text.includes(failing('llm",role="primary",engine="openai-compatible'))
        );
      },
      { what: 'the failing engines in /metrics' },
    );
    expect(await series()).toContain(
      'switchboard_engine_state{dependency="tts",role="primary",engine="offline",state="ok"} 1',
    );
    await t.http.get('/health/ready').expect(200);
  });
});
