import { applyDecorators, HttpCode, SetMetadata, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

type SchemaObject = Record<string, unknown>;

export const ENVELOPE_METADATA = 'switchboard:envelope';

export interface EnvelopeOptions {
  /** The human-readable outcome sent as `message`. */
  message: string;
  /** HTTP status of the success; also sent as `code`. */
  status?: number;
  /** The `data` payload: a DTO class, `[Dto]` for an array, String for a plain string; omit for none. */
  type?: Type<unknown> | [Type<unknown>] | StringConstructor;
  /** The seed lists `errorMessage: ""` on batch, phone and DNC successes. */
  errorMessage?: boolean;
  description?: string;
  /**
   * Optional top-level fields beside `data` (create-batch's contacts report). The handler then
   * returns `{ data, ...fields }`; a field left undefined is not sent.
   */
  fields?: Record<string, { type: Type<unknown>; description: string }>;
}

export interface EnvelopeMetadata {
  message: string;
  errorMessage: boolean;
  hasData: boolean;
  /** Names of the extra top-level fields; the handler's result is then `{ data, ...fields }`. */
  fields?: string[];
}

/** What a handler with extra envelope fields returns. */
export type WithEnvelopeFields<T, F extends object> = { data: T } & Partial<F>;

/** Wraps the handler's return value in the common envelope and documents that shape. */
export function ApiEnvelope(options: EnvelopeOptions): MethodDecorator {
  const status = options.status ?? 200;
  const metadata: EnvelopeMetadata = {
    message: options.message,
    errorMessage: options.errorMessage ?? false,
    hasData: options.type !== undefined,
    ...(options.fields ? { fields: Object.keys(options.fields) } : {}),
  };
  const properties: Record<string, SchemaObject> = {
    message: { type: 'string', example: options.message },
    status: { type: 'boolean', example: true },
    code: { type: 'integer', example: status },
  };
  const required = ['message', 'status', 'code'];
  if (metadata.errorMessage) {
    properties.errorMessage = { type: 'string', example: '' };
    required.push('errorMessage');
  }
  const models: Type<unknown>[] = [];
  if (options.type === String) {
    properties.data = { type: 'string' };
  } else if (Array.isArray(options.type)) {
    models.push(options.type[0]);
    properties.data = { type: 'array', items: { $ref: getSchemaPath(options.type[0]) } };
  } else if (options.type) {
    models.push(options.type as Type<unknown>);
    properties.data = { $ref: getSchemaPath(options.type as Type<unknown>) };
  }
  if (properties.data) required.push('data');
  for (const [name, field] of Object.entries(options.fields ?? {})) {
    models.push(field.type);
    properties[name] = {
      allOf: [{ $ref: getSchemaPath(field.type) }],
      description: field.description,
    };
  }
  return applyDecorators(
    SetMetadata(ENVELOPE_METADATA, metadata),
    HttpCode(status),
    ApiExtraModels(...models),
    ApiResponse({
      status,
      description: options.description ?? options.message,
      schema: { type: 'object', required, properties },
    }),
  );
}

/** For the few operations whose success body is not the envelope (delete-batch, delete-phone). */
export function ApiRawResponse(options: {
  status?: number;
  type: Type<unknown>;
  description: string;
}): MethodDecorator {
  const status = options.status ?? 200;
  return applyDecorators(
    HttpCode(status),
    ApiResponse({ status, type: options.type, description: options.description }),
  );
}
