/** How a case authenticates: real credentials of the harness, none, or forged ones. */
export type AuthMode = 'apiKey' | 'admin' | 'member' | 'none' | 'forgedJwt' | 'forgedKey';

/** A URL value: `raw` values are sent as they are (already percent-encoded, possibly broken). */
export interface UrlValue {
  value: string;
  raw?: boolean;
}

export interface FilePart {
  field: string;
  filename: string;
  content: string;
}

/**
 * How a multipart body ends wrong (issue #28): cut short (its last 40 bytes), without its closing
 * boundary, or framed by another boundary than the one its Content-Type names.
 */
export type MultipartFraming = 'truncated' | 'unterminated' | 'misbounded';

export const MULTIPART_FRAMINGS: Record<MultipartFraming, string> = {
  truncated: 'truncated (last 40 bytes cut)',
  unterminated: 'unterminated (no closing boundary)',
  misbounded: 'mis-bounded (header names another boundary)',
};

/** A file part in a field no operation documents: the part an upload does not read. */
export const STRAY_FILE: FilePart = {
  field: 'attachment',
  filename: 'stray.csv',
  content: 'phoneNumber\n+14155550100\n',
};

export type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string }
  | {
      kind: 'multipart';
      fields: [string, string][];
      files: FilePart[];
      framing?: MultipartFraming;
    };

/** One concrete request, before encoding. */
export interface FuzzRequest {
  auth: AuthMode;
  /** Which forged credential, when auth is forged (index into the harness's list). */
  forgery?: number;
  path: Record<string, UrlValue>;
  query: [string, UrlValue][];
  body?: Body;
}

/** One hostile change to a valid request; the label names it in failure reports. */
export type Mutation = { label: string } & (
  | { kind: 'auth'; mode: AuthMode; forgery?: number }
  | { kind: 'path'; name: string; to: UrlValue }
  | { kind: 'query-set'; name: string; to: UrlValue }
  | { kind: 'query-drop'; name: string }
  | { kind: 'query-add'; name: string; to: UrlValue }
  | { kind: 'body-set'; pointer: string[]; value: unknown }
  | { kind: 'body-drop'; pointer: string[] }
  | { kind: 'body-null-all' }
  | { kind: 'body-replace'; value: unknown }
  | { kind: 'body-raw'; contentType: string; text: string }
  | { kind: 'file-content'; field: string; content: string }
  | { kind: 'multipart-framing'; framing: MultipartFraming }
  | { kind: 'stray-file' }
);

/** A generated case: a valid request and the mutations applied to it. */
export interface FuzzCase {
  operationId: string;
  index: number;
  base: FuzzRequest;
  mutations: Mutation[];
}

/** The request a case sends: its base with every mutation applied in order. */
export function applyMutations(base: FuzzRequest, mutations: Mutation[]): FuzzRequest {
  const request = structuredClone(base);
  for (const mutation of mutations) apply(request, mutation);
  return request;
}

function apply(request: FuzzRequest, mutation: Mutation): void {
  switch (mutation.kind) {
    case 'auth':
      request.auth = mutation.mode;
      request.forgery = mutation.forgery;
      return;
    case 'path':
      request.path[mutation.name] = mutation.to;
      return;
    case 'query-set':
      request.query = request.query.filter(([name]) => name !== mutation.name);
      request.query.push([mutation.name, mutation.to]);
      return;
    case 'query-drop':
      request.query = request.query.filter(([name]) => name !== mutation.name);
      return;
    case 'query-add':
      request.query.push([mutation.name, mutation.to]);
      return;
    case 'body-set':
    case 'body-drop':
      return editField(request, mutation.pointer, mutation.kind === 'body-set', mutation);
    case 'body-null-all':
      if (request.body?.kind === 'json') request.body.value = nullEverywhere(request.body.value);
      if (request.body?.kind === 'multipart') {
        request.body.fields = request.body.fields.map(([name]) => [name, 'null']);
      }
      return;
    case 'body-replace':
      request.body = { kind: 'json', value: ownCopy(mutation.value) };
      return;
    case 'body-raw':
      request.body = { kind: 'raw', contentType: mutation.contentType, text: mutation.text };
      return;
    case 'file-content':
      if (request.body?.kind !== 'multipart') return;
      request.body.files = request.body.files.filter((file) => file.field !== mutation.field);
      request.body.files.push({
        field: mutation.field,
        filename: 'contacts.csv',
        content: mutation.content,
      });
      return;
    case 'multipart-framing':
      if (request.body?.kind === 'multipart') request.body.framing = mutation.framing;
      return;
    case 'stray-file':
      // before the documented files: the upload has not started reading its own part yet
      if (request.body?.kind === 'multipart') request.body.files.unshift({ ...STRAY_FILE });
      return;
    default: {
      const unknown: never = mutation;
      throw new Error(`unknown mutation ${JSON.stringify(unknown)}`);
    }
  }
}

function editField(
  request: FuzzRequest,
  pointer: string[],
  set: boolean,
  mutation: Mutation,
): void {
  const body = request.body;
  if (body?.kind === 'multipart') {
    const name = pointer[0];
    body.fields = body.fields.filter(([field]) => field !== name);
    if (set && 'value' in mutation) body.fields.push([name, asFieldText(mutation.value)]);
    return;
  }
  if (body?.kind !== 'json' || body.value === null || typeof body.value !== 'object') return;
  let node = body.value as Record<string, unknown>;
  pointer.slice(0, -1).forEach((key, i) => {
    const next = node[key];
    // A copy of each level walked through: the hostile values are shared by every case, and
    // editing one in place would change later cases (or make a body that contains itself).
    const level =
      next === null || typeof next !== 'object'
        ? /^\d+$/.test(pointer[i + 1])
          ? []
          : {}
        : ownCopy(next);
    setOwn(node, key, level);
    node = level as Record<string, unknown>;
  });
  const last = pointer[pointer.length - 1];
  if (set && 'value' in mutation) {
    setOwn(node, last, mutation.value);
  } else {
    delete node[last];
  }
}

/** defineProperty: a key named __proto__ becomes an own property, as JSON.parse makes it. */
function setOwn(node: object, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A shallow copy of an object or array (own keys such as `__proto__` kept); else the value. */
function ownCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Array.isArray(value) ? [...value] : { ...value };
}

const RAW_KEY = '__fuzzRawJson';

/** A value whose JSON is given as text (nesting deeper than JSON.stringify can serialize). */
export function rawJson(text: string): Record<string, string> {
  return { [RAW_KEY]: text };
}

/** JSON.stringify, with rawJson() values inlined as their text. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text =
    JSON.stringify(value, (_key, entry: unknown) => {
      if (entry !== null && typeof entry === 'object' && RAW_KEY in entry) {
        raws.push((entry as Record<string, string>)[RAW_KEY]);
        return `\u0001raw${raws.length - 1}\u0001`;
      }
      return entry;
    }) ?? 'null';
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, i: string) => raws[Number(i)]);
}

/** A multipart field is text: strings as they are, anything else as its JSON. */
export function asFieldText(value: unknown): string {
  return typeof value === 'string' ? value : toJsonText(value);
}

function nullEverywhere(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(() => null);
  if (value === null || typeof value !== 'object') return null;
  return Object.fromEntries(Object.keys(value).map((key) => [key, null]));
}
