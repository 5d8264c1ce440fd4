import type { FuzzResponse, Rendered } from './http-client';
import { flatten, type Operation, type Schema } from './openapi-model';

/** Slower than this is a failure (issue #18). */
export const SLOW_MS = 5_000;

const STACK_TRACE = /at .+\(.+:\d+:\d+\)/;
const SQL_TEXT =
  /\bSELECT\b|\bINSERT\b|\bUPDATE\b .+\bSET\b|relation "|syntax error|violates .+ constraint|invalid input syntax/;
const ERROR_KEYS = new Set(['message', 'status', 'code', 'errorMessage', 'errors', 'requestId']);

/**
 * What is wrong with an answer, as one short symptom per problem (the failure report groups by
 * operation and symptom); an empty list is a pass. 429 is a legitimate answer (throttles).
 */
export function judge(operation: Operation, rendered: Rendered, response: FuzzResponse): string[] {
  const problems: string[] = [];
  if (response.transportError) return [`no answer (${response.transportError.slice(0, 60)})`];
  if (response.ms > SLOW_MS) problems.push(`slow (> ${SLOW_MS / 1000} s)`);
  if (response.status >= 500) problems.push(`status ${response.status}`);
  const leak = leakIn(response.text, rendered);
  if (leak) problems.push(`leak: ${leak}`);
  const documented = operation.responses[String(response.status)];
  const isJson = /^application\/json\b/.test(response.contentType);
  if (response.status >= 200 && response.status < 300) {
    if (rendered.framing)
      problems.push(`success for a broken multipart body (${rendered.framing})`);
    if (!documented) return [...problems, `undocumented success status ${response.status}`];
    if (!documented.mediaTypes.some((type) => type === 'application/json')) {
      const expected = documented.mediaTypes[0];
      if (expected && !response.contentType.startsWith(expected)) {
        problems.push(`success content-type ${response.contentType || 'none'} != ${expected}`);
      }
      return problems;
    }
    if (!isJson) return [...problems, `success is not JSON (${response.contentType || 'no type'})`];
    const body = parse(response.text);
    problems.push(...successProblems(body, response.status, documented.schema));
    return problems;
  }
  if (response.status >= 400) {
    if (!isJson) return [...problems, `error is not JSON (${response.contentType || 'no type'})`];
    problems.push(...errorProblems(parse(response.text), response.status));
    return problems;
  }
  return [...problems, `unexpected status ${response.status}`];
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{ message, status: false, code, errorMessage, errors?, requestId? }` with code == HTTP status. */
function errorProblems(body: unknown, status: number): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return ['error body is not an object'];
  }
  const e = body as Record<string, unknown>;
  const problems: string[] = [];
  const extra = Object.keys(e).filter((key) => !ERROR_KEYS.has(key));
  if (extra.length > 0) problems.push(`error envelope has extra keys ${extra.sort().join(',')}`);
  if (typeof e.message !== 'string') problems.push('error envelope: message not a string');
  if (e.status !== false) problems.push('error envelope: status not false');
  if (e.code !== status) problems.push(`error envelope: code ${String(e.code)} != HTTP status`);
  if (typeof e.errorMessage !== 'string')
    problems.push('error envelope: errorMessage not a string');
  if (e.requestId !== undefined && typeof e.requestId !== 'string') {
    problems.push('error envelope: requestId not a string');
  }
  if (
    e.errors !== undefined &&
    !(
      Array.isArray(e.errors) &&
      e.errors.every(
        (item: { field?: unknown; message?: unknown } | null) =>
          typeof item?.field === 'string' && typeof item.message === 'string',
      )
    )
  ) {
    problems.push('error envelope: errors not [{ field, message }]');
  }
  return problems;
}

/** The documented success schema: the envelope (message, status: true, code, data) or a raw DTO. */
function successProblems(body: unknown, status: number, documented?: Schema): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return ['success body is not an object'];
  }
  const s = body as Record<string, unknown>;
  const schema = documented ? flatten(documented) : undefined;
  const required = schema?.required ?? [];
  const missing = required.filter((key) => !(key in s));
  const problems = missing.length > 0 ? [`success body lacks ${missing.join(',')}`] : [];
  const isEnvelope = ['message', 'status', 'code'].every(
    (key) => key in (schema?.properties ?? {}),
  );
  if (!isEnvelope) return problems;
  if (typeof s.message !== 'string') problems.push('success envelope: message not a string');
  if (s.status !== true) problems.push('success envelope: status not true');
  if (s.code !== status) problems.push(`success envelope: code ${String(s.code)} != HTTP status`);
  return problems;
}

/** A stack frame or SQL text in the body that the request itself did not carry. */
function leakIn(text: string, rendered: Rendered): string | undefined {
  const sent = `${decodeSafely(rendered.url)} ${rendered.body?.toString('utf8') ?? ''}`;
  const stack = STACK_TRACE.exec(text);
  if (stack && !sent.includes(stack[0])) return 'stack trace';
  const sql = SQL_TEXT.exec(text);
  if (sql && !sent.includes(sql[0])) return `SQL text "${sql[0].slice(0, 30)}"`;
  return undefined;
}

function decodeSafely(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
