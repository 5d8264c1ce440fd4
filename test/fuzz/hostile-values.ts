import fc from 'fast-check';
import { rawJson } from './fuzz-case';

/**
 * The catalogue of hostile inputs (issue #18). Each entry has a short label: the failure report
 * names the ingredients of a minimal case by these labels. No entry holds upper-case SQL keywords
 * or a stack-trace shape, so the leak check never matches an echo of the input.
 */
export interface Hostile {
  label: string;
  value: unknown;
}

const h = (label: string, value: unknown): Hostile => ({ label, value });

function nested(depth: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

export const HOSTILE_STRINGS: Hostile[] = [
  h('NUL byte', 'a\u0000b'),
  h('only NUL', '\u0000'),
  h('lone high surrogate', '\ud800'),
  h('reversed surrogates', '\udfff\ud800'),
  h('RTL override + emoji', '\u202eevil\u202c 👩‍👩‍👧‍👦 🏳️‍🌈 ﷽'),
  h('zero-width and BOM', '\ufeff\u200b\u200d'),
  h('empty string', ''),
  h('whitespace only', ' \t\r\n '),
  h('huge string (100k)', 'x'.repeat(100_000)),
  h('long string (5k)', 'y'.repeat(5_000)),
  h('regex metacharacters', '.*+?^${}()|[]\\'),
  h('unclosed regex class', '['),
  h('catastrophic regex (a+)+$', `(a+)+$${'a'.repeat(30)}!`),
  h('catastrophic regex (a|aa)*', `^(a|aa)*$${'a'.repeat(40)}b`),
  h('catastrophic regex ((a*)*)*', '((a*)*)*b'),
  h('regex backreference', '(a)\\1\\9'),
  h('regex lookahead', '(?=a)(?!b)(?<=c)'),
  h('LIKE wildcards', '%_%\\'),
  h('quote injection', "' or '1'='1' --"),
  h('statement injection', "'); drop table users; --"),
  h('JSON operator injection', '{"$gt":""}'),
  h('percent-encoded NUL', '%00'),
  h('path traversal', '../../etc/passwd'),
  h('format string', '%s%n%x'),
  h('number text 1e309', '1e309'),
  h('number text NaN', 'NaN'),
  h('number text -1', '-1'),
  h('number text 2147483648', '2147483648'),
  h('extreme date +275760', '+275760-09-13T00:00:00.000Z'),
  h('extreme date -271821', '-271821-04-20T00:00:00.000Z'),
  h('impossible date', '2024-02-30T25:61:61Z'),
  h('year zero date', '0000-01-01T00:00:00Z'),
  h('malformed ObjectId (23 hex)', '65f1c0ffee0123456789abc'),
  h('malformed ObjectId (upper case)', '65F1C0FFEE0123456789ABCD'),
  h('malformed ObjectId (non hex)', 'zzzzzzzzzzzzzzzzzzzzzzzz'),
  h('unknown ObjectId', 'ffffffffffffffffffffffff'),
  h('UUID instead of ObjectId', '3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e'),
  h('prototype key', '__proto__'),
  h('header injection', 'a\r\nx-injected: 1'),
  h('html', '<script>alert(1)</script>'),
  h('phone-like with letters', '+1415555CALL'),
  h('phone 30 digits', '+123456789012345678901234567890'),
];

export const HOSTILE_NUMBERS: Hostile[] = [
  h('2147483648 (int4 + 1)', 2147483648),
  h('-2147483649', -2147483649),
  h('9999999999999', 9999999999999),
  h('2^53 + 2', 2 ** 53 + 2),
  h('-1', -1),
  h('0', 0),
  h('-0', -0),
  h('1.5 fraction', 1.5),
  h('1e308', 1e308),
  h('5e-324', 5e-324),
];

export const HOSTILE_SHAPES: Hostile[] = [
  h('null', null),
  h('true', true),
  h('empty object', {}),
  h('empty array', []),
  h('array of nulls', [null, null]),
  h('object with __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}')),
  h('nested arrays (depth 2000)', nested(2000, 1, 'array')),
  h('nested objects (depth 2000)', nested(2000, 1, 'object')),
  // deeper than JSON.stringify can go: sent as JSON text
  h('nested arrays (depth 100000)', rawJson(`${'['.repeat(100_000)}1${']'.repeat(100_000)}`)),
  h('nested objects (depth 50000)', rawJson(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`)),
  h(
    'array of 20k numbers',
    Array.from({ length: 20_000 }, (_, i) => i),
  ),
];

/** Every hostile value, for any field or parameter whatever its documented type. */
export const HOSTILE_ANY: Hostile[] = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...HOSTILE_SHAPES];

/** The inputs issue #18 names: drawn four times as often as the rest of the catalogue. */
const CORE = new Set([
  'NUL byte',
  'lone high surrogate',
  'reversed surrogates',
  'RTL override + emoji',
  'huge string (100k)',
  'catastrophic regex (a+)+$',
  'number text 1e309',
  'number text NaN',
  'number text 2147483648',
  'extreme date +275760',
  'malformed ObjectId (23 hex)',
  '2147483648 (int4 + 1)',
  '9999999999999',
  '-1',
  'null',
  'nested objects (depth 2000)',
  'nested arrays (depth 100000)',
]);

/** One of `entries`, the core ones of issue #18 more often. */
export function weighted(entries: Hostile[]): fc.Arbitrary<Hostile> {
  return fc.oneof(
    ...entries.map((entry) => ({
      weight: CORE.has(entry.label) ? 4 : 1,
      arbitrary: fc.constant(entry),
    })),
  );
}

/** Values for the keys of a JSON-in-string filter: out-of-range numbers, NUL, operators, shapes. */
export const hostileFilterValue = weighted([
  ...HOSTILE_NUMBERS,
  ...HOSTILE_SHAPES.slice(0, 6),
  ...HOSTILE_STRINGS.filter((entry) => (entry.value as string).length < 200),
  h('text 9999999999999', '9999999999999'),
  h('transcript-like NUL', 'a\u0000'),
]);

/** Raw bytes for a body that does not parse as what its content type says. */
export const MALFORMED_BODIES: { label: string; contentType: string; text: string }[] = [
  { label: 'truncated JSON', contentType: 'application/json', text: '{"name":"a' },
  { label: 'JSON with trailing garbage', contentType: 'application/json', text: '{} x' },
  { label: 'JSON duplicate keys', contentType: 'application/json', text: '{"a":1,"a":{"b":2}}' },
  { label: 'JSON top-level string', contentType: 'application/json', text: '"text"' },
  { label: 'JSON top-level null', contentType: 'application/json', text: 'null' },
  { label: 'JSON NaN literal', contentType: 'application/json', text: '{"a":NaN}' },
  { label: 'BOM before JSON', contentType: 'application/json', text: '\ufeff{}' },
  { label: 'empty JSON body', contentType: 'application/json', text: '' },
  { label: 'JSON in latin1 charset', contentType: 'application/json; charset=latin1', text: '{}' },
  { label: 'JSON in utf-7 charset', contentType: 'application/json; charset=utf-7', text: '{}' },
  { label: 'text/plain body', contentType: 'text/plain', text: 'hello' },
  { label: 'urlencoded body', contentType: 'application/x-www-form-urlencoded', text: 'a=1&a=2&b' },
  { label: 'multipart without boundary', contentType: 'multipart/form-data', text: 'x' },
  {
    label: 'multipart unterminated',
    contentType: 'multipart/form-data; boundary=XyZ',
    text: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
  },
  { label: 'xml body', contentType: 'application/xml', text: '<a>1</a>' },
];

/** Raw (already percent-encoded) texts for a URL segment or query value. */
export const RAW_URL_TEXTS: Hostile[] = [
  h('lone % in URL', '%'),
  h('bad percent escape', '%zz'),
  h('encoded lone surrogate (CESU-8)', '%ED%A0%80'),
  h('overlong UTF-8 dot', '%C0%AE'),
  h('invalid UTF-8 byte', '%FF'),
  h('encoded NUL', '%00'),
  h('encoded slash', '..%2F..%2F'),
];
