import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isObjectId } from './object-id';

/** A 24-character lower-case hex id. */
export function IsObjectId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isObjectId',
      validator: {
        validate: (value: unknown) => isObjectId(value),
        defaultMessage: (args) =>
          `Invalid ${args?.property ?? 'id'} format: expected a 24-character hex id`,
      },
    },
    options,
  );
}
