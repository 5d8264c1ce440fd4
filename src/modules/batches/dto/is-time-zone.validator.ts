import { ValidateBy, type ValidationOptions } from 'class-validator';

/** An IANA time zone name the runtime knows (e.g. Europe/Berlin). */
export function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function IsTimeZone(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTimeZone',
      validator: {
        validate: isTimeZone,
        defaultMessage: (args) => `${args?.property ?? 'timezone'} must be an IANA time zone name`,
      },
    },
    options,
  );
}
