import type { ChatToolCall } from '../../llm/chat-model';
import { toolDigitEntry } from './turn-tools';

const call = (args: unknown): ChatToolCall => ({
  id: 'c1',
  type: 'function',
  function: { name: 'collect_digits', arguments: JSON.stringify(args) },
});

describe('collect_digits arguments', () => {
  it('reads the entry, min_digits defaulting to max_digits and never above it', () => {
    expect(toolDigitEntry(call({ name: ' pin ', max_digits: 4 }))).toEqual({
      name: 'pin',
      minDigits: 4,
      maxDigits: 4,
    });
    expect(toolDigitEntry(call({ name: 'zip', max_digits: 5, min_digits: 9 }))).toMatchObject({
      minDigits: 5,
    });
    expect(toolDigitEntry(call({ name: 'card', max_digits: 500 }))?.maxDigits).toBe(32);
  });

  it('refuses an entry without a name or a whole number of digits', () => {
    expect(toolDigitEntry(call({ max_digits: 4 }))).toBeNull();
    expect(toolDigitEntry(call({ name: 'pin', max_digits: 'four' }))).toBeNull();
    expect(toolDigitEntry(call({ name: 'pin', max_digits: 2.5 }))).toBeNull();
    expect(
      toolDigitEntry({ id: 'c', type: 'function', function: { name: 'x', arguments: '{' } }),
    ).toBeNull();
  });
});
