import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The subset of JSON Schema that openapi.json uses, with every `$ref` already resolved. */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  title?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  description?: string;
}

export type BodyMediaType = 'application/json' | 'multipart/form-data';

export interface RequestBodyDoc {
  mediaType: BodyMediaType;
  schema: Schema;
}

export interface ResponseDoc {
  /** Media types of the documented body, e.g. application/json or text/csv. */
  mediaTypes: string[];
  schema?: Schema;
}

export interface Operation {
  id: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The OpenAPI template, e.g. /api/webhooks/{webhookId}. */
  path: string;
  parameters: Parameter[];
  bodies: RequestBodyDoc[];
  /** False for operations without a security requirement (register, login, health). */
  secured: boolean;
  /** Names of the security schemes that open it: `bearer`, `api-key`. */
  schemes: string[];
  responses: Record<string, ResponseDoc>;
}

type Raw = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const MEDIA_TYPES: BodyMediaType[] = ['application/json', 'multipart/form-data'];

export const OPENAPI_FILE = join(__dirname, '../../openapi.json');

/** Reads the committed OpenAPI description: every operation, its inputs and documented answers. */
export function loadOperations(file = OPENAPI_FILE): Operation[] {
  const document = JSON.parse(readFileSync(file, 'utf8')) as Raw;
  const resolve = resolver(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Raw>)) {
    for (const method of METHODS) {
      const operation = item[method] as Raw | undefined;
      if (!operation) continue;
      const parameters = ((operation.parameters ?? []) as Raw[]).map((raw) => {
        const parameter = resolve(raw) as Raw;
        return {
          name: parameter.name as string,
          in: parameter.in as Parameter['in'],
          required: parameter.required === true,
          schema: resolve(parameter.schema ?? {}) as Schema,
          description: parameter.description as string | undefined,
        };
      });
      const content = ((resolve(operation.requestBody ?? {}) as Raw).content ?? {}) as Raw;
      const bodies = MEDIA_TYPES.filter((type) => content[type]).map((mediaType) => ({
        mediaType,
        schema: resolve((content[mediaType] as Raw).schema ?? {}) as Schema,
      }));
      const responses: Record<string, ResponseDoc> = {};
      for (const [status, raw] of Object.entries((operation.responses ?? {}) as Raw)) {
        const media = ((resolve(raw) as Raw).content ?? {}) as Record<string, Raw>;
        const first = Object.values(media)[0];
        responses[status] = {
          mediaTypes: Object.keys(media),
          schema: first?.schema ? (resolve(first.schema) as Schema) : undefined,
        };
      }
      const security = (operation.security ?? document.security ?? []) as Raw[];
      operations.push({
        id: (operation.operationId as string | undefined) ?? `${method} ${path}`,
        method,
        path,
        parameters,
        bodies,
        secured: security.length > 0,
        schemes: security.flatMap((requirement) => Object.keys(requirement)),
        responses,
      });
    }
  }
  return operations;
}

/** Inlines every local `$ref` (the document has no cycles; a depth bound guards anyway). */
function resolver(document: Raw): (value: unknown) => unknown {
  const lookup = (ref: string): unknown =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Raw)[key.replace(/~1/g, '/')], document);
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error('openapi.json: $ref nesting deeper than 32');
    if (Array.isArray(value)) return value.map((entry) => walk(entry, depth));
    if (value === null || typeof value !== 'object') return value;
    const node = value as Raw;
    if (typeof node.$ref === 'string') return walk(lookup(node.$ref), depth + 1);
    return Object.fromEntries(
      Object.entries(node).map(([key, entry]) => [key, walk(entry, depth)]),
    );
  };
  return (value) => walk(value, 0);
}

/** allOf branches merged into one object schema (what the DTOs use for nested objects). */
export function flatten(schema: Schema): Schema {
  if (!schema.allOf) return schema;
  const merged: Schema = { ...schema, allOf: undefined };
  for (const part of schema.allOf.map(flatten)) {
    Object.assign(merged, part, {
      properties: { ...merged.properties, ...part.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    });
  }
  return merged;
}
