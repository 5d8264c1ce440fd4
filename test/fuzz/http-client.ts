import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { type FuzzRequest, type MultipartFraming, toJsonText } from './fuzz-case';
import type { Operation } from './openapi-model';

/** The credentials a case can present; forged ones are picked by `FuzzRequest.forgery`. */
export interface Credentials {
  apiKey: string;
  adminToken: string;
  memberToken: string;
  forgedJwts: string[];
  forgedKeys: string[];
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
  ms: number;
  /** Set when no answer came: connection reset, socket hang up or the client's own timeout. */
  transportError?: string;
}

export interface Rendered {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Set when the body is multipart framed wrong on purpose: no success may answer it. */
  framing?: MultipartFraming;
}

/** UTF-8 that keeps lone surrogates as their 3-byte forms (WTF-8): the bytes a hostile client sends. */
export function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    } else {
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 63),
        0x80 | ((code >> 6) & 63),
        0x80 | (code & 63),
      );
    }
  }
  return Buffer.from(bytes);
}

function percentEncode(text: string): string {
  let out = '';
  for (const byte of wtf8(text)) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The exact bytes of a case: URL with its parameters, credential headers and body. */
export function render(
  operation: Operation,
  request: FuzzRequest,
  credentials: Credentials,
  clientAddress: string,
): Rendered {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = request.path[name] ?? { value: '' };
    return param.raw ? param.value : percentEncode(param.value);
  });
  const query = request.query
    .map(([name, v]) => `${percentEncode(name)}=${v.raw ? v.value : percentEncode(v.value)}`)
    .join('&');
  const headers: Record<string, string> = { 'x-forwarded-for': clientAddress };
  const forged = request.forgery ?? 0;
  switch (request.auth) {
    case 'apiKey':
      headers['x-api-key'] = credentials.apiKey;
      break;
    case 'admin':
      headers.authorization = `Bearer ${credentials.adminToken}`;
      break;
    case 'member':
      headers.authorization = `Bearer ${credentials.memberToken}`;
      break;
    case 'forgedJwt':
      headers.authorization = `Bearer ${credentials.forgedJwts[forged % credentials.forgedJwts.length]}`;
      break;
    case 'forgedKey':
      headers['x-api-key'] = credentials.forgedKeys[forged % credentials.forgedKeys.length];
      break;
    case 'none':
      break;
  }
  let body: Buffer | undefined;
  const payload = request.body;
  if (payload?.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = wtf8(toJsonText(payload.value));
  } else if (payload?.kind === 'raw') {
    headers['content-type'] = payload.contentType;
    body = wtf8(payload.text);
  } else if (payload?.kind === 'multipart') {
    const boundary = `fuzz${randomBytes(8).toString('hex')}`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    const parts: Buffer[] = [];
    for (const [name, value] of payload.fields) {
      parts.push(wtf8(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`));
      parts.push(wtf8(value), Buffer.from('\r\n'));
    }
    for (const file of payload.files) {
      parts.push(
        wtf8(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        wtf8(file.content),
        Buffer.from('\r\n'),
      );
    }
    if (payload.framing !== 'unterminated') parts.push(Buffer.from(`--${boundary}--\r\n`));
    body = Buffer.concat(parts);
    if (payload.framing === 'truncated') body = body.subarray(0, Math.max(body.length - 40, 1));
    if (payload.framing === 'misbounded') {
      headers['content-type'] = `multipart/form-data; boundary=${boundary}-other`;
    }
  }
  return {
    method: operation.method.toUpperCase(),
    url: query ? `${path}?${query}` : path,
    headers,
    body,
    ...(payload?.kind === 'multipart' && payload.framing ? { framing: payload.framing } : {}),
  };
}

// A fresh connection per request: a kept-alive socket the server is just closing would turn into
// ECONNRESET, an error of the client, not the app.
const agent = new Agent({ keepAlive: false });

/** Sends one rendered request to the app; never rejects (transport failures are answers too). */
export function send(
  baseUrl: string,
  rendered: Rendered,
  timeoutMs: number,
): Promise<FuzzResponse> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (response: Omit<FuzzResponse, 'ms'>) =>
      resolve({ ...response, ms: Math.round(performance.now() - started) });
    const base = new URL(baseUrl);
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        // the path as it is: a URL object would re-encode the hostile escapes
        path: rendered.url,
        method: rendered.method,
        agent,
        headers: {
          ...rendered.headers,
          ...(rendered.body ? { 'content-length': String(rendered.body.length) } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) =>
          done({ status: 0, contentType: '', text: '', transportError: error.message }),
        );
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) =>
      done({ status: 0, contentType: '', text: '', transportError: error.message }),
    );
    req.end(rendered.body);
  });
}
