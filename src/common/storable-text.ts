// PostgreSQL text cannot hold NUL (0x00), and a UTF-16 surrogate without its pair has no UTF-8
// form (JSON can still carry both as \u escapes).
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u;

export const UNSTORABLE_TEXT_MESSAGE =
  'must not contain NUL characters or unpaired UTF-16 surrogates';

/** True when PostgreSQL can store the string as text. */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/**
 * The path of the first string (value or object key) PostgreSQL cannot store, or undefined.
 * `skip` names top-level properties whose values are checked elsewhere.
 */
export function findUnstorableText(
  value: unknown,
  { path = '', skip = new Set<string>() }: { path?: string; skip?: ReadonlySet<string> } = {},
): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || 'value';
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findUnstorableText(value[index], { path: `${path}[${index}]` });
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return field;
    if (skip.has(key)) continue;
    const found = findUnstorableText(item, { path: field });
    if (found) return found;
  }
  return undefined;
}

const CHECKED_PER_ROW = Symbol('checkedPerRow');

/**
 * Leaves a body property out of the request-wide text check: its items are rows that each
 * pass or fail on their own (contact rows report an unstorable value as a rejected row).
 */
export function RowsCheckTheirOwnText(): PropertyDecorator {
  return (target, property) => {
    const names = (Reflect.getMetadata(CHECKED_PER_ROW, target.constructor) ?? []) as string[];
    Reflect.defineMetadata(CHECKED_PER_ROW, [...names, String(property)], target.constructor);
  };
}

/** The properties of a DTO class marked with RowsCheckTheirOwnText (inherited ones included). */
export function rowsCheckingTheirOwnText(metatype: unknown): ReadonlySet<string> {
  if (typeof metatype !== 'function') return new Set();
  return new Set((Reflect.getMetadata(CHECKED_PER_ROW, metatype) ?? []) as string[]);
}
