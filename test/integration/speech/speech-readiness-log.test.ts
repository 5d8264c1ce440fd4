import { LogCapture } from '../../support/log-capture';
import { startTestApp, type TestApp } from '../../support/test-app';

describe('the service logs its speech engines at start', () => {
  const logs = new LogCapture();
  let t: TestApp;
  const key = 'dg-canary-key-5521';

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        LOG_LEVEL: 'info',
        STT_PROVIDER: 'deepgram',
        STT_API_KEY: key,
        STT_API_URL: 'wss://listen.example.test/v1',
        TTS_PROVIDER: 'elevenlabs',
      },
      logStream: logs,
    });
  });
  afterAll(() => t.close());

  it('in one line that names what is missing and no secret or URL', () => {
    const lines = logs.lines.filter((line) => String(line.msg).startsWith('Speech engines'));
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toBe(
      'Speech engines not ready (STT deepgram, TTS elevenlabs): TTS_API_KEY is not set (TTS_PROVIDER=elevenlabs)',
    );
    expect(logs.text).not.toContain(key);
    expect(logs.text).not.toContain('listen.example.test');
  });
});
