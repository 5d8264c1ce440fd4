/**
 * Server-sent events from a byte stream split anywhere: mid-line, mid-UTF-8 character, between
 * `\r` and `\n`. Yields the `data` of each event (several `data:` lines joined by `\n`); comments
 * (`: keep-alive`) and other fields are skipped.
 */
export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private buffer = '';
  private data: string[] = [];

  push(bytes: Uint8Array): string[] {
    return this.take(this.utf8.decode(bytes, { stream: true }), false);
  }

  /** The end of the stream: an event not closed by a blank line still counts. */
  end(): string[] {
    const events = this.take(this.utf8.decode(), true);
    if (this.data.length > 0) events.push(this.data.join('\n'));
    this.data = [];
    return events;
  }

  private take(text: string, final: boolean): string[] {
    this.buffer += text;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    // A trailing '\r' may be the first half of '\r\n': keep it until the next chunk says.
    if (!final && lines.length > 0 && this.buffer === '' && text.endsWith('\r')) {
      this.buffer = `${lines.pop() ?? ''}\r`;
    }
    if (final && this.buffer !== '') lines.push(this.buffer.replace(/\r$/, ''));
    const events: string[] = [];
    for (const line of lines) this.line(line, events);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
}
