import busboy from 'busboy';
import { multipartBody } from './multipart-body';

/** What busboy, the parser our own uploads use, reads back from a body. */
function parse(body: Buffer, contentType: string) {
  return new Promise<{ fields: Record<string, string>; files: Record<string, unknown>[] }>(
    (resolve, reject) => {
      const fields: Record<string, string> = {};
      const files: Record<string, unknown>[] = [];
      const parser = busboy({ headers: { 'content-type': contentType } });
      parser.on('field', (name, value) => (fields[name] = value));
      parser.on('file', (field, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => files.push({ field, ...info, data: Buffer.concat(chunks) }));
      });
      parser.on('close', () => resolve({ fields, files }));
      parser.on('error', reject);
      parser.end(body);
    },
  );
}

describe('multipartBody', () => {
  it('encodes text fields and a binary file that a multipart parser reads back exactly', async () => {
    const audio = Buffer.from([0, 13, 10, 45, 45, 255, 128]); // CR LF "--" inside the data
    const { body, contentType } = multipartBody({ model: 'whisper-1', language: 'en' }, [
      { field: 'file', filename: 'utterance.wav', contentType: 'audio/wav', data: audio },
    ]);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=-+switchboard[0-9a-f]{24}$/);
    const parsed = await parse(body, contentType);
    expect(parsed.fields).toEqual({ model: 'whisper-1', language: 'en' });
    expect(parsed.files).toEqual([
      expect.objectContaining({
        field: 'file',
        filename: 'utterance.wav',
        mimeType: 'audio/wav',
        data: audio,
      }),
    ]);
  });

  it('keeps a quote or line break in a name from breaking out of its header', async () => {
    const { body, contentType } = multipartBody({ 'a"b\r\nX-Injected: 1': 'v' }, []);
    const parsed = await parse(body, contentType);
    expect(Object.values(parsed.fields)).toEqual(['v']);
    expect(body.toString()).not.toContain('\r\nX-Injected');
  });
});
