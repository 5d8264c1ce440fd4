import { ChatChunkAssembler } from './chat-chunk-assembler';
import { LlmError } from './llm.error';

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
  JSON.stringify({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });

describe('ChatChunkAssembler', () => {
  it('yields text deltas as they come and done with the finish reason', () => {
    const assembler = new ChatChunkAssembler();
    expect(assembler.accept(chunk({ role: 'assistant', content: '' }))).toEqual([]);
    expect(assembler.accept(chunk({ content: 'Hel' }))).toEqual([{ kind: 'text', text: 'Hel' }]);
    expect(assembler.accept(chunk({ content: 'lo' }))).toEqual([{ kind: 'text', text: 'lo' }]);
    expect(assembler.accept(chunk({}, 'stop'))).toEqual([]);
    expect(assembler.accept('[DONE]')).toEqual([{ kind: 'done', finishReason: 'stop' }]);
  });

  it('assembles tool calls split across chunks, by index, in index order', () => {
    const assembler = new ChatChunkAssembler();
    const fragments = [
      { index: 1, id: 'call_b', type: 'function', function: { name: 'end_call', arguments: '' } },
      {
        index: 0,
        id: 'call_a',
        type: 'function',
        function: { name: 'record_opt_out', arguments: '{"re' },
      },
      { index: 1, function: { arguments: '{}' } },
      { index: 0, function: { arguments: 'ason":"asked"}' } },
    ];
    for (const fragment of fragments) {
      expect(assembler.accept(chunk({ tool_calls: [fragment] }))).toEqual([]);
    }
    assembler.accept(chunk({}, 'tool_calls'));
    expect(assembler.accept('[DONE]')).toEqual([
      {
        kind: 'tool-call',
        call: {
          id: 'call_a',
          type: 'function',
          function: { name: 'record_opt_out', arguments: '{"reason":"asked"}' },
        },
      },
      {
        kind: 'tool-call',
        call: { id: 'call_b', type: 'function', function: { name: 'end_call', arguments: '{}' } },
      },
      { kind: 'done', finishReason: 'tool_calls' },
    ]);
  });

  it('ends well without [DONE] once a finish reason came, and ignores the usage chunk', () => {
    const assembler = new ChatChunkAssembler();
    assembler.accept(chunk({ content: 'x' }, 'length'));
    expect(assembler.accept(JSON.stringify({ choices: [], usage: { total_tokens: 3 } }))).toEqual(
      [],
    );
    expect(assembler.end()).toEqual([{ kind: 'done', finishReason: 'length' }]);
  });

  it.each([
    ['a body cut before any finish reason', (a: ChatChunkAssembler) => a.end(), 'malformed'],
    ['a chunk that is not JSON', (a: ChatChunkAssembler) => a.accept('{"choices":'), 'malformed'],
    [
      'an error chunk after the 200',
      (a: ChatChunkAssembler) =>
        a.accept('{"error":{"message":"boom sk-secret","code":"server_error"}}'),
      'refused',
    ],
  ])('refuses %s', (_, act, kind) => {
    const assembler = new ChatChunkAssembler();
    assembler.accept(chunk({ content: 'partial' }));
    let thrown: unknown;
    try {
      act(assembler);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LlmError);
    expect((thrown as LlmError).kind).toBe(kind);
    expect((thrown as LlmError).message).not.toMatch(/secret|boom|partial/);
  });
});
