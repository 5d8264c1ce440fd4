import { ValidateBy, type ValidationOptions } from 'class-validator';
import { toE164 } from './phone-number';

/** A valid phone number in E.164; pair it with toE164Number so any accepted form is stored so. */
export function IsE164PhoneNumber(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isE164PhoneNumber',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && toE164(value) === value,
        defaultMessage: (args) =>
          `${args?.property ?? 'phoneNumber'} must be a valid phone number with its country code`,
      },
    },
    options,
  );
}

/** For @Transform: a number written with its country code as E.164; anything else as sent. */
export const toE164Number = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.length <= 32 ? (toE164(value) ?? value) : value;
