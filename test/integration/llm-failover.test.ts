import { Test } from '@nestjs/testing';
import { DependencyFailure } from '../../src/common/dependency-failure';
import { type AppConfig, ConfigModule, loadConfig } from '../../src/config';
import { SwitchboardMetrics } from '../../src/metrics/switchboard-metrics';
import {
  CHAT_MODEL,
  type ChatModel,
  type ChatStreamEvent,
  VOICE_CHAT_MODEL,
} from '../../src/modules/llm/chat-model';
import { createVoiceChatModel, LlmModule } from '../../src/modules/llm/llm.module';
import { ChatFake } from '../fakes';
import { metricValue, timed } from './speech/engine-config';

jest.setTimeout(60_000);

const KEY = 'sk-llm-key';
const messages = [{ role: 'user' as const, content: 'When do you open?' }];

const texts = (events: ChatStreamEvent[]) =>
  events.flatMap((event) => (event.kind === 'text' ? [event.text] : []));

async function collect(
  events: AsyncIterable<ChatStreamEvent>,
  seen: ChatStreamEvent[] = [],
): Promise<ChatStreamEvent[]> {
  for await (const event of events) seen.push(event);
  return seen;
}

// The chat model of live calls: the first token within LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS (not the
// 10-15 s of the other paths), one retry, LLM_FALLBACK_*, the circuit breaker, and one
// DependencyFailure('llm') once all are spent.
describe('the voice chat model retries and falls back', () => {
  let primary: ChatFake;
  let fallback: ChatFake;
  let metrics: SwitchboardMetrics;

  beforeEach(async () => {
    [primary, fallback] = await Promise.all([ChatFake.start(), ChatFake.start()]);
    metrics = new SwitchboardMetrics();
  });
  afterEach(() => Promise.all([primary.stop(), fallback.stop()]));

  function model(
    options: { fallback?: boolean; deadlineMs?: number; circuit?: AppConfig['engineCircuit'] } = {},
  ): ChatModel {
    return createVoiceChatModel(
      {
        llm: {
          apiUrl: primary.url,
          apiKey: KEY,
          model: 'gpt-4o',
          // The other paths' limits, far longer than a caller waits.
          firstByteTimeoutMs: 15_000,
          idleTimeoutMs: 10_000,
          voiceFirstTokenTimeoutMs: options.deadlineMs ?? 2_000,
          fallback:
            options.fallback === false
              ? undefined
              : { apiUrl: fallback.url, apiKey: 'sk-fallback', model: 'llama3.1' },
        },
        engineCircuit: options.circuit ?? { failures: 3, coolDownMs: 30_000 },
      },
      metrics.engineEvents,
    );
  }

  it('retries a 503 and streams the primary reply', async () => {
    primary.faults.next({ kind: 'status', status: 503 });
    primary.reply({ kind: 'text', pieces: ['We open ', 'at nine.'] });
    const events = await collect(model().stream({ messages, model: 'agent-model' }));
    expect(texts(events)).toEqual(['We open ', 'at nine.']);
    expect(primary.requests).toHaveLength(2);
    expect(fallback.requests).toHaveLength(0);
  });

  it("waits out a 429's short Retry-After, then streams", async () => {
    primary.faults.next({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    primary.reply({ kind: 'text', pieces: ['Hello.'] });
    const { value, ms } = await timed(() =>
      collect(model({ deadlineMs: 4_000, fallback: false }).stream({ messages })),
    );
    expect(texts(value!)).toEqual(['Hello.']);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(primary.requests[1].receivedAt - primary.requests[0].receivedAt).toBeGreaterThan(950);
  });

  it('answers with the fallback within the voice deadline when the model never sends a first token', async () => {
    // Headers and the assistant role come, then nothing: only a first-token deadline sees it.
    primary.respond = () => ({ kind: 'stall', pieces: [] });
    fallback.reply({ kind: 'text', pieces: ['Sorry, ', 'we open at nine.'] });
    const { value, ms } = await timed(() =>
      collect(model({ deadlineMs: 2_000 }).stream({ messages, model: 'agent-model' })),
    );
    expect(texts(value!)).toEqual(['Sorry, ', 'we open at nine.']);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2_000);
    // The fallback answers with its own model, whatever the agent named.
    expect(fallback.requests[0].body).toMatchObject({ model: 'llama3.1', stream: true, messages });
    expect(fallback.requests[0].headers.authorization).toBe('Bearer sk-fallback');
    expect(
      await metricValue(metrics, 'switchboard_engine_fallbacks_total', {
        dependency: 'llm',
        role: 'primary',
        engine: 'openai-compatible',
      }),
    ).toBe(1);
  });

  it('throws one DependencyFailure("llm") within the deadline when the fallback is down too', async () => {
    primary.faults.always({ kind: 'hang' });
    fallback.faults.always({ kind: 'status', status: 500 });
    const { error, ms } = await timed(() =>
      collect(model({ deadlineMs: 1_500 }).stream({ messages })),
    );
    expect(error).toBeInstanceOf(DependencyFailure);
    expect(error).toMatchObject({ dependency: 'llm' });
    expect((error as Error).message).toMatch(
      /^chat model failed: openai-compatible \(primary\): no answer within \d+ ms; openai-compatible \(fallback\): chat model refused the request: HTTP 500/,
    );
    expect(ms).toBeLessThan(1_500 + 250);
  });

  it('fails at once, without the fallback, when the stream breaks after it gave text', async () => {
    // The cut falls inside the second piece: the first has been streamed whole.
    primary.faults.next({ kind: 'cut', afterBytes: 600 });
    primary.reply({ kind: 'text', pieces: ['We open at nine. ', 'x'.repeat(2_000)] });
    const seen: ChatStreamEvent[] = [];
    const { error, ms } = await timed(() => collect(model().stream({ messages }), seen));
    expect(texts(seen)).toEqual(['We open at nine. ']);
    expect(error).toBeInstanceOf(DependencyFailure);
    expect(ms).toBeLessThan(1_000);
    expect(fallback.requests).toHaveLength(0);
  });

  it('opens the circuit of a failing primary and closes it after a good probe', async () => {
    primary.faults.always({ kind: 'status', status: 500 });
    fallback.respond = () => ({ kind: 'text', pieces: ['fallback'] });
    const voice = model({ circuit: { failures: 2, coolDownMs: 300 } });
    const reply = async () => texts(await collect(voice.stream({ messages }))).join('');
    await reply();
    await reply();
    const asked = primary.requests.length;
    expect(asked).toBe(4); // two turns, each a try and a retry
    await expect(reply()).resolves.toBe('fallback');
    expect(primary.requests).toHaveLength(asked);
    primary.faults.clear();
    const started = performance.now();
    while ((await reply()) !== 'OK.') expect(performance.now() - started).toBeLessThan(2_000);
    expect(
      await metricValue(metrics, 'switchboard_engine_state', {
        dependency: 'llm',
        role: 'primary',
        engine: 'openai-compatible',
        state: 'ok',
      }),
    ).toBe(1);
  });

  it('still asks a model with no fallback after its circuit opened: one blip does not fail the next calls', async () => {
    primary.faults.next({ kind: 'hang' });
    const voice = model({
      fallback: false,
      deadlineMs: 500,
      circuit: { failures: 1, coolDownMs: 60_000 },
    });
    await expect(collect(voice.stream({ messages }))).rejects.toBeInstanceOf(DependencyFailure);
    expect(texts(await collect(voice.stream({ messages })))).toEqual(['OK.']);
  });

  it('is what live calls get from LlmModule; messaging keeps the plain client', async () => {
    primary.respond = () => ({ kind: 'stall', pieces: [] });
    fallback.reply({ kind: 'text', pieces: ['From the fallback.'] });
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(
          loadConfig({
            LLM_API_URL: primary.url,
            LLM_FALLBACK_API_URL: fallback.url,
            LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS: '1000',
          }),
        ),
        LlmModule,
      ],
    }).compile();
    const voice = moduleRef.get<ChatModel>(VOICE_CHAT_MODEL);
    expect(texts(await collect(voice.stream({ messages })))).toEqual(['From the fallback.']);
    expect(moduleRef.get<ChatModel>(CHAT_MODEL)).not.toBe(voice);
  });
});
