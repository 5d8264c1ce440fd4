import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body (RFC 7578): the text fields, then the files. */
export function multipartBody(
  fields: Record<string, string>,
  files: MultipartFile[],
): { body: Buffer; contentType: string } {
  const boundary = `----switchboard${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  const head = (disposition: string, type?: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n` +
        (type ? `Content-Type: ${type}\r\n` : '') +
        '\r\n',
    );
  for (const [name, value] of Object.entries(fields)) {
    parts.push(head(`name="${quoted(name)}"`), Buffer.from(value), Buffer.from('\r\n'));
  }
  for (const file of files) {
    parts.push(
      head(`name="${quoted(file.field)}"; filename="${quoted(file.filename)}"`, file.contentType),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A name inside a quoted header parameter, escaped as the HTML form encoding does. */
function quoted(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
