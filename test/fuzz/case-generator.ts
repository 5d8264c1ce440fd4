import fc from 'fast-check';
import {
  type AuthMode,
  type Body,
  type FuzzCase,
  type FuzzRequest,
  MULTIPART_FRAMINGS,
  type MultipartFraming,
  type Mutation,
  type UrlValue,
} from './fuzz-case';
import {
  HOSTILE_ANY,
  HOSTILE_STRINGS,
  type Hostile,
  hostileFilterValue,
  MALFORMED_BODIES,
  RAW_URL_TEXTS,
  weighted,
} from './hostile-values';
import {
  type BodyMediaType,
  flatten,
  type Operation,
  type Parameter,
  type Schema,
} from './openapi-model';
import { documentedKeys, jsonTextExample, objectId, SchemaValues } from './schema-values';
import {
  fieldMutation,
  fieldPointers,
  framingCases,
  framingMutation,
  STRAY_FILE_MUTATION,
  systematicMutations,
} from './systematic';

/** Random cases each operation gets beyond its systematic ones, however many those are. */
const RANDOM_FLOOR = 25;

/** Forged credentials the harness prepares; a case picks one by index. */
export const FORGERY_COUNT = 8;

/** URL values stay far under Node's 16 KiB header limit, which answers before the app can. */
const URL_HOSTILES = HOSTILE_STRINGS.filter((entry) => (entry.value as string).length <= 5_000);

const pick = <T>(items: readonly T[]) => fc.constantFrom(...items);
const text = (entry: Hostile): UrlValue => ({ value: String(entry.value) });

/**
 * Cases for one operation, read from its OpenAPI description only: a valid request (real ids,
 * documented bounds and examples) plus zero to four hostile mutations.
 */
export class CaseGenerator {
  private readonly canonical: CaseGenerator;

  constructor(
    private readonly values: SchemaValues,
    canonicalValues?: SchemaValues,
  ) {
    this.canonical = canonicalValues ? new CaseGenerator(canonicalValues) : this;
  }

  /**
   * `total` cases (at least): first one case per input slot and core hostile value (each field,
   * query and path parameter gets NUL, lone surrogates, int4 + 1, year 275760, null...), all of
   * them whatever `total`, then random combinations up to `total` (at least RANDOM_FLOOR).
   * Deterministic for a seed.
   */
  casesFor(operation: Operation, seed: number, total: number): FuzzCase[] {
    const single = systematicMutations(operation);
    const bases = fc.sample(this.canonical.base(operation), {
      seed,
      numRuns: Math.max(single.length, 1),
    });
    // on a multipart base: a JSON body has no framing to break
    const framing = framingCases(operation);
    const multipartBases =
      framing.length > 0
        ? fc.sample(this.canonical.base(operation, 'multipart/form-data'), {
            seed: seed + 2,
            numRuns: framing.length,
          })
        : [];
    const random = fc.sample(this.cases(operation), {
      seed: seed + 1,
      numRuns: Math.max(total - single.length - framing.length, RANDOM_FLOOR),
    });
    return [
      ...single.map((mutation, i) => ({
        operationId: operation.id,
        base: bases[i],
        mutations: [mutation],
      })),
      ...framing.map((mutations, i) => ({
        operationId: operation.id,
        base: multipartBases[i],
        mutations,
      })),
      ...random,
    ].map((fuzzCase, index) => ({ ...fuzzCase, index }));
  }

  cases(operation: Operation): fc.Arbitrary<Omit<FuzzCase, 'index'>> {
    const candidates = this.mutations(operation);
    const mutation = fc.oneof(...candidates);
    return fc
      .tuple(
        this.base(operation),
        // mostly one or two mutations: a field's hostile value must not hide behind another's 400
        fc.oneof(
          { weight: 5, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }) },
          { weight: 3, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 2 }) },
          { weight: 2, arbitrary: fc.array(mutation, { minLength: 3, maxLength: 4 }) },
        ),
        fc.nat(9),
      )
      .map(([base, mutations, clean]) => ({
        operationId: operation.id,
        base,
        // one case in ten is left valid: the success envelope is checked too
        mutations: clean === 0 ? [] : mutations,
      }));
  }

  private base(operation: Operation, mediaType?: BodyMediaType): fc.Arbitrary<FuzzRequest> {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const auth: AuthMode[] = !operation.secured
      ? ['none']
      : operation.schemes.includes('api-key')
        ? ['apiKey', 'admin']
        : ['admin'];
    return fc.record({
      auth: pick(auth),
      path: fc.record(
        Object.fromEntries(
          pathParams.map((p) => [p.name, this.paramValue(p).map((value) => ({ value }))]),
        ),
      ),
      query: fc
        .tuple(
          ...queryParams.map((p) =>
            p.required
              ? this.paramValue(p)
              : fc.option(this.paramValue(p), { nil: undefined, freq: 2 }),
          ),
        )
        .map((values) =>
          queryParams.flatMap((p, i): [string, UrlValue][] =>
            values[i] === undefined ? [] : [[p.name, { value: values[i] }]],
          ),
        ),
      body: this.body(operation, mediaType),
    });
  }

  private paramValue(parameter: Parameter): fc.Arbitrary<string> {
    return this.values
      .valid({ ...parameter.schema, description: parameter.description }, parameter.name)
      .map((value) => String(value));
  }

  private body(operation: Operation, only?: BodyMediaType): fc.Arbitrary<Body | undefined> {
    const bodies = operation.bodies.filter((body) => !only || body.mediaType === only);
    if (bodies.length === 0) return fc.constant(undefined);
    return fc.oneof(
      ...bodies.map(({ mediaType, schema }) => {
        const object = pickObjectBranch(schema, mediaType === 'multipart/form-data');
        const value = this.values.valid(object);
        if (mediaType === 'application/json')
          return value.map((v): Body => ({ kind: 'json', value: v }));
        return value.map((fields): Body => toMultipart(object, fields as Record<string, unknown>));
      }),
    );
  }

  /** Every mutation that makes sense for this operation's documented inputs. */
  private mutations(operation: Operation): fc.MaybeWeightedArbitrary<Mutation>[] {
    // credentials change nothing on a public operation
    const out: fc.MaybeWeightedArbitrary<Mutation>[] = operation.secured
      ? [this.authMutation()]
      : [];
    for (const p of operation.parameters.filter((x) => x.in === 'path')) {
      out.push(
        urlHostile().map((to): Mutation => ({
          kind: 'path',
          name: p.name,
          to,
          label: `path.${p.name} ← ${labelOf(to)}`,
        })),
        objectId().map((value): Mutation => ({
          kind: 'path',
          name: p.name,
          to: { value },
          label: `path.${p.name} ← random ObjectId`,
        })),
      );
    }
    for (const p of operation.parameters.filter((x) => x.in === 'query')) {
      out.push(...this.queryMutations(p));
    }
    out.push(
      fc
        .tuple(pick(['__proto__', 'a[b]', 'x'.repeat(300), 'page[$gt]']), urlHostile())
        .map(([name, to]): Mutation => ({
          kind: 'query-add',
          name,
          to,
          label: `extra query ${name.slice(0, 20)} ← ${labelOf(to)}`,
        })),
    );
    if (operation.bodies.length > 0) out.push(...this.bodyMutations(operation));
    return out;
  }

  private authMutation(): fc.Arbitrary<Mutation> {
    return fc
      .tuple(
        pick<AuthMode>(['member', 'none', 'forgedJwt', 'forgedKey']),
        fc.nat(FORGERY_COUNT - 1),
      )
      .map(([mode, forgery]): Mutation => ({
        kind: 'auth',
        mode,
        forgery,
        label: mode.startsWith('forged') ? `auth ← ${mode} #${forgery}` : `auth ← ${mode}`,
      }));
  }

  private queryMutations(p: Parameter): fc.Arbitrary<Mutation>[] {
    const set = (to: UrlValue, label = labelOf(to)): Mutation => ({
      kind: 'query-set',
      name: p.name,
      to,
      label: `query.${p.name} ← ${label}`,
    });
    const out: fc.Arbitrary<Mutation>[] = [
      urlHostile().map((to) => set(to)),
      fc.constant<Mutation>({ kind: 'query-drop', name: p.name, label: `query.${p.name} dropped` }),
      fc.tuple(urlHostile(), this.paramValue(p)).map(([to, first]): Mutation => ({
        kind: 'query-add',
        name: p.name,
        to,
        label: `query.${p.name} repeated (${first === to.value ? 'same' : labelOf(to)})`,
      })),
    ];
    if (jsonTextExample(p.schema)) {
      const keys = documentedKeys(p.schema, p.description);
      out.push(
        fc
          .tuple(pick(keys.length > 0 ? keys : ['a']), hostileFilterValue)
          .map(([key, entry]) =>
            set(
              { value: JSON.stringify({ [key]: entry.value }) },
              `JSON {"${key}": ${entry.label}}`,
            ),
          ),
      );
    }
    return out;
  }

  private bodyMutations(operation: Operation): fc.MaybeWeightedArbitrary<Mutation>[] {
    const fields = new Map<string, string[]>();
    const required = new Set<string>();
    const files = new Set<string>();
    for (const { schema } of operation.bodies) {
      for (const branch of [schema, ...(schema.oneOf ?? [])].map(flatten)) {
        for (const pointer of fieldPointers(branch)) fields.set(pointer.join('.'), pointer);
        for (const [name, property] of Object.entries(branch.properties ?? {})) {
          if (property.format === 'binary') files.add(name);
        }
        for (const name of branch.required ?? []) required.add(name);
      }
    }
    for (const name of files) fields.delete(name);
    const out: fc.MaybeWeightedArbitrary<Mutation>[] = [
      fc.constant<Mutation>({ kind: 'body-null-all', label: 'body: every field null' }),
      weighted(HOSTILE_ANY).map((entry): Mutation => ({
        kind: 'body-replace',
        value: entry.value,
        label: `body ← ${entry.label}`,
      })),
      pick(MALFORMED_BODIES).map((entry): Mutation => ({
        kind: 'body-raw',
        contentType: entry.contentType,
        text: entry.text,
        label: `body ← ${entry.label}`,
      })),
      fc
        .tuple(
          pick(['__proto__', 'constructor', 'extra', 'a\u0000b', '$where']),
          weighted(HOSTILE_ANY),
        )
        .map(([name, entry]): Mutation => ({
          kind: 'body-set',
          pointer: [name],
          value: entry.value,
          label: `extra body field ${JSON.stringify(name)} ← ${entry.label}`,
        })),
    ];
    if (fields.size > 0) {
      // a hostile value in one field is the most telling case: drawn most often
      out.push({
        weight: 6,
        arbitrary: fc
          .tuple(pick([...fields.values()]), weighted(HOSTILE_ANY))
          .map(([pointer, entry]): Mutation => fieldMutation(pointer, entry)),
      });
    }
    if (required.size > 0) {
      out.push(
        pick([...required]).map((name): Mutation => ({
          kind: 'body-drop',
          pointer: [name],
          label: `body.${name} dropped (required)`,
        })),
      );
    }
    if (operation.bodies.some((body) => body.mediaType === 'multipart/form-data')) {
      out.push(
        pick(Object.keys(MULTIPART_FRAMINGS) as MultipartFraming[]).map(framingMutation),
        fc.constant(STRAY_FILE_MUTATION),
      );
    }
    for (const field of files) {
      out.push(
        csvText().map(({ label, content }): Mutation => ({
          kind: 'file-content',
          field,
          content,
          label: `file ${field} ← ${label}`,
        })),
      );
    }
    return out;
  }
}

function urlHostile(): fc.Arbitrary<UrlValue> {
  return fc.oneof(
    { weight: 4, arbitrary: weighted(URL_HOSTILES).map(text) },
    {
      weight: 1,
      arbitrary: pick(RAW_URL_TEXTS).map((e) => ({ value: String(e.value), raw: true })),
    },
  );
}

function labelOf(to: UrlValue): string {
  const entry = [...URL_HOSTILES, ...RAW_URL_TEXTS].find((e) => e.value === to.value);
  return entry?.label ?? JSON.stringify(to.value.slice(0, 40));
}

/** The object branch a body uses: multipart prefers the branch with a file field. */
function pickObjectBranch(schema: Schema, multipart: boolean): Schema {
  const branches = (schema.oneOf ?? [schema]).map(flatten);
  const withFile = branches.find((b) =>
    Object.values(b.properties ?? {}).some((p) => p.format === 'binary'),
  );
  return (multipart ? withFile : undefined) ?? branches[0];
}

/** A valid multipart body: arrays repeat their field, objects travel as JSON text. */
function toMultipart(schema: Schema, values: Record<string, unknown>): Body {
  const fields: [string, string][] = [];
  const files: { field: string; filename: string; content: string }[] = [];
  for (const [name, value] of Object.entries(values)) {
    const property = flatten(schema.properties?.[name] ?? {});
    if (property.format === 'binary') {
      files.push({ field: name, filename: 'contacts.csv', content: VALID_CSV });
    } else if (Array.isArray(value)) {
      for (const item of value)
        fields.push([name, typeof item === 'string' ? item : JSON.stringify(item)]);
    } else {
      fields.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.format === 'binary' && !(name in values)) {
      files.push({ field: name, filename: 'contacts.csv', content: VALID_CSV });
    }
  }
  return { kind: 'multipart', fields, files };
}

const VALID_CSV = 'phoneNumber,name\n+14155550111,Ada\n14155550112,Grace\n';

/** CSV-shaped file contents with a hostile header or cell. */
function csvText(): fc.Arbitrary<{ label: string; content: string }> {
  return fc.oneof(
    weighted(HOSTILE_STRINGS).map((entry) => ({
      label: `CSV cell ${entry.label}`,
      content: `phoneNumber,name\n+14155550111,${String(entry.value)}\n`,
    })),
    pick(HOSTILE_STRINGS).map((entry) => ({
      label: `CSV header ${entry.label}`,
      content: `phoneNumber,${String(entry.value)}\n+14155550111,x\n`,
    })),
    pick(HOSTILE_STRINGS).map((entry) => ({
      label: `CSV phone ${entry.label}`,
      content: `phoneNumber\n${String(entry.value)}\n`,
    })),
    pick([
      { label: 'CSV empty', content: '' },
      { label: 'CSV header only', content: 'phoneNumber\n' },
      { label: 'CSV unbalanced quote', content: 'phoneNumber,name\n"+14155550111,"Ada\n' },
      { label: 'CSV binary bytes', content: '\u0000\u0001\u00ff\ufffd\u0000' },
      {
        label: 'CSV 60 columns',
        content: `phoneNumber,${Array.from({ length: 60 }, (_, i) => `c${i}`).join(',')}\n+14155550111\n`,
      },
      { label: 'CSV duplicate header', content: 'phoneNumber,phoneNumber,name,name\n1,2,3,4\n' },
    ]),
  );
}
