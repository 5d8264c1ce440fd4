import { MULTIPART_FRAMINGS, type MultipartFraming, type Mutation } from './fuzz-case';
import { HOSTILE_ANY, type Hostile, RAW_URL_TEXTS } from './hostile-values';
import { flatten, type Operation, type Schema } from './openapi-model';
import { documentedKeys, jsonTextExample } from './schema-values';

const byLabel = (labels: string[]): Hostile[] =>
  labels.map((label) => {
    const entry = [...HOSTILE_ANY, ...RAW_URL_TEXTS].find((e) => e.label === label);
    if (!entry) throw new Error(`no hostile value labelled ${label}`);
    return entry;
  });

/** Issue #18's inputs, for every body field, query parameter, JSON-text key and path parameter. */
const FOR_FIELDS = byLabel([
  'NUL byte',
  'lone high surrogate',
  'reversed surrogates',
  'huge string (100k)',
  '2147483648 (int4 + 1)',
  'extreme date +275760',
  'null',
  'empty object',
]);
const FOR_QUERY = byLabel([
  'NUL byte',
  'lone high surrogate',
  'long string (5k)',
  'number text 2147483648',
  'number text 1e309',
  'extreme date +275760',
  'catastrophic regex (a+)+$',
  'unclosed regex class',
]);
const FOR_JSON_KEYS: Hostile[] = [
  ...byLabel(['2147483648 (int4 + 1)', 'null', 'empty object']),
  { label: 'text 9999999999999', value: '9999999999999' },
  { label: 'transcript-like NUL', value: 'a\u0000' },
];
const FOR_PATH = byLabel(['NUL byte', 'lone high surrogate', 'malformed ObjectId (23 hex)']);
const FOR_BODY = byLabel(['nested arrays (depth 100000)', 'nested objects (depth 2000)']);

export function fieldMutation(pointer: string[], entry: Hostile): Mutation {
  return {
    kind: 'body-set',
    pointer,
    value: entry.value,
    label: `body.${pointer.join('.')} ← ${entry.label}`,
  };
}

/**
 * Where a hostile value can go in a body: each property, the properties of a nested object, and
 * the keys of the first item of an array of objects (from the schema's example).
 */
export function fieldPointers(schema: Schema, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const property = flatten(raw);
    if (property.format === 'binary') continue;
    out.push([...prefix, name]);
    if (prefix.length > 0) continue;
    if (property.properties) out.push(...fieldPointers(property, [name]));
    const first: unknown = Array.isArray(property.example) ? property.example[0] : undefined;
    if (first && typeof first === 'object') {
      for (const key of Object.keys(first)) out.push([name, '0', key]);
    }
  }
  return out;
}

/** One single-mutation case per input slot and value of issue #18, in a fixed order. */
export function systematicMutations(operation: Operation): Mutation[] {
  const out: Mutation[] = [];
  for (const p of operation.parameters.filter((x) => x.in === 'path')) {
    for (const entry of FOR_PATH) {
      out.push({
        kind: 'path',
        name: p.name,
        to: { value: String(entry.value) },
        label: `path.${p.name} ← ${entry.label}`,
      });
    }
  }
  for (const p of operation.parameters.filter((x) => x.in === 'query')) {
    for (const entry of FOR_QUERY) {
      out.push({
        kind: 'query-set',
        name: p.name,
        to: { value: String(entry.value) },
        label: `query.${p.name} ← ${entry.label}`,
      });
    }
    out.push({
      kind: 'query-add',
      name: p.name,
      to: { value: 'a\u0000b' },
      label: `query.${p.name} repeated (NUL byte)`,
    });
    if (!jsonTextExample(p.schema)) continue;
    for (const key of documentedKeys(p.schema, p.description)) {
      for (const entry of FOR_JSON_KEYS) {
        out.push({
          kind: 'query-set',
          name: p.name,
          to: { value: JSON.stringify({ [key]: entry.value }) },
          label: `query.${p.name} ← JSON {"${key}": ${entry.label}}`,
        });
      }
    }
  }
  if (operation.bodies.length > 0) {
    const pointers = new Map<string, string[]>();
    for (const { schema } of operation.bodies) {
      for (const branch of [schema, ...(schema.oneOf ?? [])].map(flatten)) {
        for (const pointer of fieldPointers(branch)) pointers.set(pointer.join('.'), pointer);
      }
    }
    for (const pointer of pointers.values()) {
      for (const entry of FOR_FIELDS) out.push(fieldMutation(pointer, entry));
    }
    out.push({ kind: 'body-null-all', label: 'body: every field null' });
    for (const entry of FOR_BODY) {
      out.push({ kind: 'body-replace', value: entry.value, label: `body ← ${entry.label}` });
    }
  }
  return out;
}

/** A multipart body framed wrong: the body an upload cannot finish. */
export function framingMutation(framing: MultipartFraming): Mutation {
  return {
    kind: 'multipart-framing',
    framing,
    label: `multipart body ← ${MULTIPART_FRAMINGS[framing]}`,
  };
}

export const STRAY_FILE_MUTATION: Mutation = {
  kind: 'stray-file',
  label: 'multipart body ← a file part in an undocumented field',
};

/**
 * Each broken framing once with the documented parts and once after a stray file part (issue
 * #28: a file part nobody listened to ended the process); none for an operation without a
 * multipart body.
 */
export function framingCases(operation: Operation): Mutation[][] {
  if (!operation.bodies.some((body) => body.mediaType === 'multipart/form-data')) return [];
  return (Object.keys(MULTIPART_FRAMINGS) as MultipartFraming[]).flatMap((framing) => [
    [framingMutation(framing)],
    [STRAY_FILE_MUTATION, framingMutation(framing)],
  ]);
}
