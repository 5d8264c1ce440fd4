import { SseDecoder } from './sse-decoder';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds the bytes in pieces of `size` and returns every data payload. */
function decodeInPieces(bytes: Uint8Array, size: number): string[] {
  const decoder = new SseDecoder();
  const out: string[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    out.push(...decoder.push(bytes.subarray(at, at + size)));
  }
  return [...out, ...decoder.end()];
}

describe('SseDecoder', () => {
  const stream = encode(
    ': keep-alive\n\n' +
      'event: message\ndata: {"a":"héllo 👋"}\n\n' +
      'data: first\r\ndata:second\r\n\r\n' +
      'id: 7\nretry: 100\n\n' +
      'data: [DONE]\n\n',
  );

  it('yields each event data, skipping comments and other fields', () => {
    expect(decodeInPieces(stream, stream.length)).toEqual([
      '{"a":"héllo 👋"}',
      'first\nsecond',
      '[DONE]',
    ]);
  });

  it.each([1, 2, 3, 5, 7, 13])('gives the same events when split every %i bytes', (size) => {
    expect(decodeInPieces(stream, size)).toEqual(decodeInPieces(stream, stream.length));
  });

  it('keeps a multi-byte character whole across a split', () => {
    const bytes = encode('data: 👋\n\n');
    // The emoji's four bytes start at offset 6: split inside them.
    expect(decodeInPieces(bytes, 8)).toEqual(['👋']);
  });

  it('treats a lone \\r, \\n or \\r\\n as a line end, even when \\r\\n is split', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(encode('data: a\r'))).toEqual([]);
    expect(decoder.push(encode('\n\r'))).toEqual([]);
    expect(decoder.push(encode('\ndata: b\r\r'))).toEqual(['a']);
    expect(decoder.push(encode('\n'))).toEqual(['b']);
  });

  it('delivers an unterminated last event at the end', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(encode('data: tail'))).toEqual([]);
    expect(decoder.end()).toEqual(['tail']);
  });
});
