import { Test } from '@nestjs/testing';
import { ConfigModule, loadConfig } from '../../src/config';
import { CHAT_MODEL, type ChatModel, type ChatStreamEvent } from '../../src/modules/llm/chat-model';
import { LlmError } from '../../src/modules/llm/llm.error';
import { LlmModule } from '../../src/modules/llm/llm.module';
import { OpenAiChatModel } from '../../src/modules/llm/openai-chat-model';
import { ChatFake } from '../fakes';
import { freePort } from '../support/free-port';

const API_KEY = 'sk-test-secret-key';
const PROMPT = 'confidential prompt text';

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function failure(work: Promise<unknown>): Promise<LlmError> {
  const error: unknown = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LlmError);
  const llmError = error as LlmError;
  expect(llmError.message).not.toContain(API_KEY);
  expect(llmError.message).not.toContain(PROMPT);
  return llmError;
}

describe('OpenAI-compatible chat client against the fake chat server', () => {
  let fake: ChatFake;
  let model: OpenAiChatModel;
  const messages = [
    { role: 'system' as const, content: PROMPT },
    { role: 'user' as const, content: 'Hi' },
  ];

  beforeEach(async () => {
    fake = await ChatFake.start({ splitBytes: 3 });
    model = new OpenAiChatModel({
      apiUrl: fake.url,
      apiKey: API_KEY,
      model: 'test-model',
      firstByteTimeoutMs: 300,
      idleTimeoutMs: 300,
    });
  });
  afterEach(() => fake.stop());

  it('streams text pieces split every 3 bytes (mid-line, mid-character) and sends the request', async () => {
    fake.reply({ kind: 'text', pieces: ['Héllo ', 'wörld 👋', '. Bye.'] });
    const events = await collect(model.stream({ messages, temperature: 0.2 }));
    expect(events).toEqual([
      { kind: 'text', text: 'Héllo ' },
      { kind: 'text', text: 'wörld 👋' },
      { kind: 'text', text: '. Bye.' },
      { kind: 'done', finishReason: 'stop' },
    ]);
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toEqual({
      model: 'test-model',
      messages,
      stream: true,
      temperature: 0.2,
    });
  });

  it('assembles tool calls whose arguments arrive in fragments', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'end_call', description: 'Hang up', parameters: { type: 'object' } },
      },
    ];
    fake.reply({
      kind: 'tool-calls',
      text: 'Goodbye.',
      calls: [
        { name: 'record_opt_out', arguments: { reason: 'asked not to be called again' } },
        { name: 'end_call', arguments: {} },
      ],
    });
    const events = await collect(model.stream({ messages, tools }));
    expect(events.map((e) => (e.kind === 'tool-call' ? e.call.function : e))).toEqual([
      { kind: 'text', text: 'Goodbye.' },
      { name: 'record_opt_out', arguments: '{"reason":"asked not to be called again"}' },
      { name: 'end_call', arguments: '{}' },
      { kind: 'done', finishReason: 'tool_calls' },
    ]);
    expect(fake.requests[0]?.body.tools).toEqual(tools);
  });

  it('completes without streaming, asking for strict json_schema output', async () => {
    fake.reply({ kind: 'text', pieces: ['{"outcome":', '"interested"}'] });
    const schema = { type: 'object', properties: { outcome: { type: 'string' } } };
    const result = await model.complete({ messages, jsonSchema: { name: 'analysis', schema } });
    expect(result).toEqual({ text: '{"outcome":"interested"}', toolCalls: [] });
    expect(fake.requests[0]?.body).toMatchObject({
      stream: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'analysis', schema, strict: true },
      },
    });
  });

  it('returns the tool calls of a non-streamed answer', async () => {
    fake.reply({ kind: 'tool-calls', calls: [{ name: 'end_call', arguments: { why: 'done' } }] });
    const result = await model.complete({ messages });
    expect(result.toolCalls).toEqual([
      {
        id: 'call_0',
        type: 'function',
        function: { name: 'end_call', arguments: '{"why":"done"}' },
      },
    ]);
  });

  it('refuses structured output that is not JSON', async () => {
    fake.reply({ kind: 'text', pieces: ['not json'] });
    const error = await failure(
      model.complete({ messages, jsonSchema: { name: 'x', schema: {} } }),
    );
    expect(error.kind).toBe('malformed');
  });

  it.each([401, 429, 500])(
    'turns HTTP %i into refused with the status, streamed or not',
    async (status) => {
      fake.reply(
        { kind: 'error', status, code: 'invalid_api_key', message: `Incorrect API key ${API_KEY}` },
        { kind: 'error', status },
      );
      const streamed = await failure(collect(model.stream({ messages })));
      expect(streamed).toMatchObject({ kind: 'refused', status });
      expect(streamed.message).toContain('invalid_api_key');
      const completed = await failure(model.complete({ messages }));
      expect(completed).toMatchObject({ kind: 'refused', status, retryable: status !== 401 });
    },
  );

  it('turns an error chunk after the 200 into refused', async () => {
    fake.reply({ kind: 'mid-stream-error', pieces: ['Hal'], code: 'server_error' });
    const error = await failure(collect(model.stream({ messages })));
    expect(error).toMatchObject({ kind: 'refused', status: undefined });
  });

  it('times out when no first byte comes', async () => {
    fake.reply({ kind: 'stall' }, { kind: 'stall' });
    expect(await failure(collect(model.stream({ messages })))).toMatchObject({ kind: 'timeout' });
    expect(await failure(model.complete({ messages }))).toMatchObject({ kind: 'timeout' });
  });

  it('times out when a stream goes silent after some text', async () => {
    fake.reply({ kind: 'stall', pieces: ['Hello'] });
    const seen: ChatStreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of model.stream({ messages })) seen.push(event);
      })(),
    );
    expect(error.kind).toBe('timeout');
    expect(seen).toEqual([{ kind: 'text', text: 'Hello' }]);
  });

  it("stops at the caller's abort with the caller's reason", async () => {
    fake.reply({ kind: 'stall', pieces: ['Hello'] });
    const controller = new AbortController();
    const reason = new Error('caller barged in');
    const work = (async () => {
      for await (const event of model.stream({ messages, signal: controller.signal })) {
        if (event.kind === 'text') controller.abort(reason);
      }
    })();
    await expect(work).rejects.toBe(reason);
  });

  it('says unreachable when nothing listens', async () => {
    const closed = new OpenAiChatModel({
      apiUrl: `http://127.0.0.1:${await freePort()}/v1`,
      apiKey: API_KEY,
      model: 'm',
      firstByteTimeoutMs: 1_000,
      idleTimeoutMs: 1_000,
    });
    expect(await failure(closed.complete({ messages }))).toMatchObject({ kind: 'unreachable' });
  });
});

describe('LlmModule', () => {
  async function chatModel(env: Record<string, string>): Promise<ChatModel> {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(loadConfig(env)), LlmModule],
    }).compile();
    return moduleRef.get<ChatModel>(CHAT_MODEL);
  }

  it('answers not_configured when LLM_API_URL is unset', async () => {
    const model = await chatModel({});
    expect(await failure(model.complete({ messages: [] }))).toMatchObject({
      kind: 'not_configured',
    });
    expect(await failure(collect(model.stream({ messages: [] })))).toMatchObject({
      kind: 'not_configured',
    });
  });

  it('talks to LLM_API_URL with LLM_MODEL and LLM_API_KEY', async () => {
    const fake = await ChatFake.start();
    try {
      const model = await chatModel({
        LLM_API_URL: fake.url,
        LLM_API_KEY: API_KEY,
        LLM_MODEL: 'm-1',
      });
      expect(await model.complete({ messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
        text: 'OK.',
        toolCalls: [],
      });
      expect(fake.requests[0]?.body.model).toBe('m-1');
    } finally {
      await fake.stop();
    }
  });
});
