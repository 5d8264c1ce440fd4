import type { Type } from '@nestjs/common';
import { isObjectId } from '../common/object-id';
import { validateBody, ValidationFailedException } from '../common/validation';
import { UsageError } from './exit-codes';

/** A record id argument (24 hex digits), or a usage error naming the argument. */
export function objectIdArgument(name: string, value: string | undefined): string {
  if (value === undefined || !isObjectId(value)) {
    throw new UsageError(`${name} must be an id of 24 hexadecimal digits`);
  }
  return value;
}

/** An ISO 8601 time option, or a usage error naming the option. */
export function timeOption(name: string, value: unknown): Date | undefined {
  if (value === undefined) return undefined;
  const time = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(time.getTime())) {
    throw new UsageError(`${name} must be a time in ISO 8601 (2026-11-22T10:00:00Z)`);
  }
  return time;
}

/** Options checked by the API's own DTO rules; a violation is a usage error listing them. */
export async function validatedOptions<T extends object>(
  metatype: Type<T>,
  value: Record<string, unknown>,
): Promise<T> {
  try {
    return await validateBody(metatype, value);
  } catch (error) {
    if (error instanceof ValidationFailedException) throw new UsageError(error.message);
    throw error;
  }
}
