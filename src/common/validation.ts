import {
  type ArgumentMetadata,
  BadRequestException,
  type Type,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
import type { FieldError } from '@app/contracts';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting-depth';
import {
  findUnstorableText,
  rowsCheckingTheirOwnText,
  UNSTORABLE_TEXT_MESSAGE,
} from './storable-text';

/** A 400 carrying one entry per failed field; the filter renders it as `errors`. */
export class ValidationFailedException extends BadRequestException {
  constructor(readonly fieldErrors: FieldError[]) {
    super(fieldErrors.map((error) => error.message).join('; '));
  }
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/**
 * The one pipe of every body, query and path parameter. Before the DTO rules, a value nested
 * too deep or any string that PostgreSQL cannot store (NUL, an unpaired surrogate) answers 400:
 * no rule of any DTO then needs to think of them, and no query ever sees them.
 */
class AppValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      if (nestsDeeperThan(value, MAX_NESTING_DEPTH)) {
        const field = metadata.data ?? metadata.type;
        throw new ValidationFailedException([
          { field, message: `${field} nests deeper than ${MAX_NESTING_DEPTH} levels` },
        ]);
      }
      const field = findUnstorableText(value, {
        path: metadata.data ?? '',
        skip: rowsCheckingTheirOwnText(metadata.metatype),
      });
      if (field) {
        throw new ValidationFailedException([
          { field, message: `${field} ${UNSTORABLE_TEXT_MESSAGE}` },
        ]);
      }
    }
    return super.transform(value, metadata);
  }
}

/** Unknown properties are refused (mass assignment); strings like "5" become numbers where typed. */
export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
  });
}

/** validateBody's pipe: one serves every request, as the global pipe does. */
let bodyPipe: ValidationPipe | undefined;

/**
 * Validates a body the route reads itself (a JSON body or a converted multipart form) with the
 * same rules and the same 400 as the global pipe.
 */
export async function validateBody<T extends object>(
  metatype: Type<T>,
  value: unknown,
): Promise<T> {
  bodyPipe ??= createValidationPipe();
  return (await bodyPipe.transform(value, { type: 'body', metatype })) as T;
}
