import fc from 'fast-check';
import { flatten, type Schema } from './openapi-model';

/**
 * Ids of real resources the harness created, by kind (`batch`, `webhook`, `phone`, `user`, ...).
 * An id-like field or parameter takes a real id of the kind its name or description mentions, so
 * cases reach past the 404 into the rules and queries.
 */
export type IdPool = Record<string, string[]>;

const OBJECT_ID = /^[0-9a-f]{24}$/;

/** Values the document says are valid, derived from each schema's type, bounds and example. */
export class SchemaValues {
  /**
   * `canonical`: the plainest valid value instead of a varied one: required properties only,
   * the documented example where there is one. The systematic cases start from it, so a hostile
   * value in one slot is not hidden by a 400 about another.
   */
  constructor(
    private readonly ids: IdPool,
    private readonly canonical = false,
  ) {}

  /** A valid value for `schema`; `name` and the parent's example refine id-like strings. */
  valid(schema: Schema, name = '', parentExample?: unknown): fc.Arbitrary<unknown> {
    const s = flatten(schema);
    if (s.oneOf ?? s.anyOf)
      return fc.oneof(...(s.oneOf ?? s.anyOf)!.map((b) => this.valid(b, name)));
    if (s.enum?.length) return fc.constantFrom(...s.enum);
    switch (s.type ?? (s.properties ? 'object' : undefined)) {
      case 'string':
        return this.string(s, name, parentExample);
      case 'integer':
      case 'number':
        return this.number(s);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return this.array(s, name);
      case 'object':
        return this.object(s);
      case undefined:
      default:
        return fc.constant(s.example ?? 'x');
    }
  }

  /** Real ids whose kind the field names (batchId, webhookId, "Phone record ids"), else all. */
  idsFor(name: string, description = ''): string[] {
    const text = `${name} ${description}`.toLowerCase();
    const kinds = Object.keys(this.ids).filter((kind) => text.includes(kind));
    const chosen = (kinds.length > 0 ? kinds : Object.keys(this.ids)).flatMap((k) => this.ids[k]);
    return chosen.length > 0 ? chosen : ['ffffffffffffffffffffffff'];
  }

  isIdLike(schema: Schema, name: string, parentExample?: unknown): boolean {
    const example = schema.example ?? (Array.isArray(parentExample) ? parentExample[0] : undefined);
    return (
      /(^id|Id|Ids)$/.test(name) ||
      (typeof example === 'string' && OBJECT_ID.test(example)) ||
      /\bids?\b/i.test(schema.description ?? '')
    );
  }

  private string(s: Schema, name: string, parentExample?: unknown): fc.Arbitrary<string> {
    const example = s.example;
    if (this.isIdLike(s, name, parentExample)) {
      if (this.canonical) return fc.constantFrom(...this.idsFor(name, s.description));
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...this.idsFor(name, s.description)) },
        { weight: 1, arbitrary: objectId() },
      );
    }
    if (s.format === 'date-time') {
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    }
    if (s.format === 'binary') return fc.constant('');
    if (typeof example === 'string') {
      if (/^\+?\d{8,15}$/.test(example)) {
        return fc
          .integer({ min: 0, max: 9999 })
          .map((n) => `+1415555${String(n).padStart(4, '0')}`);
      }
      if (example.includes('@')) {
        return fc.stringMatching(/^[a-z0-9]{4,12}$/).map((local) => `fuzz-${local}@example.com`);
      }
      if (this.canonical) return fc.constant(example);
      return fc.oneof({ weight: 3, arbitrary: fc.constant(example) }, this.text(s));
    }
    return this.text(s);
  }

  private text(s: Schema): fc.Arbitrary<string> {
    const minLength = s.minLength ?? 1;
    const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
    return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
  }

  private number(s: Schema): fc.Arbitrary<number> {
    if (this.canonical && typeof s.example === 'number') return fc.constant(s.example);
    const min = s.minimum ?? 0;
    const max = s.maximum ?? Math.max(min, 1000);
    // A whole example reads as an integer field, unless its bounds are fractional (0.1 calls/s).
    const whole = Number.isInteger(min) && Number.isInteger(max);
    return s.type === 'integer' || (whole && Number.isInteger(s.example ?? 0))
      ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
      : fc.double({ min, max, noNaN: true });
  }

  private array(s: Schema, name: string): fc.Arbitrary<unknown[]> {
    if (
      this.canonical &&
      Array.isArray(s.example) &&
      !this.isIdLike(flatten(s.items ?? {}), name, s.example)
    ) {
      return fc.constant(s.example as unknown[]);
    }
    const items = flatten(s.items ?? {});
    const maxLength = Math.min(s.maxItems ?? 3, 3);
    const generated = items.enum?.length
      ? fc.uniqueArray(fc.constantFrom(...items.enum), { minLength: 1, maxLength })
      : fc.array(this.valid(items, name.replace(/s$/, 'Id'), s.example), {
          minLength: 1,
          maxLength,
        });
    return Array.isArray(s.example) && !this.isIdLike(items, name, s.example)
      ? fc.oneof(fc.constant(s.example as unknown[]), generated)
      : generated;
  }

  private object(s: Schema): fc.Arbitrary<Record<string, unknown>> {
    const properties = s.properties ?? {};
    if (Object.keys(properties).length === 0) {
      const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
      return fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/), this.valid(values), {
        maxKeys: 4,
      });
    }
    const required = new Set(s.required ?? []);
    const entries = Object.entries(properties).map(([key, schema]) => {
      const value = this.valid(schema, key);
      if (this.canonical) return required.has(key) ? value : fc.constant(undefined);
      return required.has(key) ? value : fc.option(value, { nil: undefined, freq: 2 });
    });
    return fc.tuple(...entries).map((values) =>
      Object.fromEntries(
        Object.keys(properties)
          .map((key, i) => [key, values[i]] as const)
          .filter(([, value]) => value !== undefined),
      ),
    );
  }
}

export function objectId(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[0-9a-f]{24}$/);
}

/** Whether a string parameter carries JSON text (its example parses as a JSON object). */
export function jsonTextExample(schema: Schema): Record<string, unknown> | undefined {
  if (typeof schema.example !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(schema.example);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Key names a JSON-text parameter documents: its example's keys and any "(a, b, c)" list. */
export function documentedKeys(schema: Schema, description = ''): string[] {
  const keys = new Set(Object.keys(jsonTextExample(schema) ?? {}));
  for (const [, list] of description.matchAll(/\(([^)]*)\)/g)) {
    for (const word of list.split(',').map((part) => part.trim())) {
      if (/^[A-Za-z_]\w*$/.test(word)) keys.add(word);
    }
  }
  return [...keys];
}
