import type { UploadFields } from '../../../common/form-fields';

type Converter = (value: string | string[]) => unknown;

const single =
  (convert: (text: string) => unknown): Converter =>
  (value) =>
    // A repeated scalar stays an array: validation then refuses it.
    Array.isArray(value) ? value : convert(value);

/** A JSON text as its value; anything unparseable stays text, for validation to refuse. */
function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** "2" → 2; anything else stays text, for validation to refuse. */
const number = (text: string): unknown =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

const boolean = (text: string): unknown =>
  text === 'true' ? true : text === 'false' ? false : text;

/** A repeated field, or one field holding a JSON array; each item converted. */
const list =
  (item: (text: string) => unknown): Converter =>
  (value) => {
    if (Array.isArray(value)) return value.map(item);
    if (value.trimStart().startsWith('[')) {
      const parsed = json(value);
      return Array.isArray(parsed) ? parsed : value;
    }
    return [item(value)];
  };

/**
 * How each CreateBatchDto field travels in a form; unknown fields pass as sent. A Map, so a
 * field named `__proto__` or `constructor` is simply not in it (an object literal would answer
 * Object.prototype and Object for them).
 */
const FORM_FIELDS: ReadonlyMap<string, Converter> = new Map<string, Converter>([
  ['batchName', single(String)],
  ['callingNumbers', list(String)],
  ['retry', single(number)],
  ['retryOn', list(String)],
  ['delay', single(number)],
  ['retryPolicy', single(json)],
  ['startAt', single(String)],
  ['endAt', single(String)],
  ['timezone', single(String)],
  ['callingHour', single(json)],
  ['allowedDays', list(number)],
  ['enforceCalleeLocalHours', single(boolean)],
  ['trustContactTimezone', single(boolean)],
  ['agentId', single(String)],
  ['maxConcurrentCalls', single(number)],
  ['recordCalls', single(boolean)],
]);

/**
 * The form fields of a multipart create-batch as the JSON body they stand for, before the same
 * validation: numbers and booleans as text, callingHour and retryPolicy as JSON text, callingNumbers, retryOn
 * and allowedDays repeated (also as `name[]`) or as one JSON array text.
 */
export function createBatchFormToBody(fields: UploadFields): Record<string, unknown> {
  // No prototype: a field named __proto__ is an unknown field like any other.
  const body = Object.create(null) as Record<string, unknown>;
  for (const [sent, value] of Object.entries(fields)) {
    const name = sent.endsWith('[]') ? sent.slice(0, -2) : sent;
    const convert = FORM_FIELDS.get(name);
    if (!convert) body[sent] = value;
    else if (sent === name) body[name] = convert(value);
    else body[name] = convert([value].flat());
  }
  return body;
}
