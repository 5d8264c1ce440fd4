import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Date, time and offset (Z or ±HH:MM): an instant, never a local time or a bare date. */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** An ISO 8601 instant with its offset, on a day the calendar has (2026-02-30 is not). */
export function isInstant(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = INSTANT.exec(value);
  if (!match) return false;
  const [year, month, day] = [match[1], match[2], match[3]].map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return day <= lastDay.getUTCDate() && Number.isFinite(Date.parse(value));
}

export function IsInstant(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInstant',
      validator: {
        validate: isInstant,
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be an ISO 8601 instant with its offset, e.g. 2026-11-23T14:00:00Z`,
      },
    },
    options,
  );
}
