import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDate, Matches, MaxDate, MinDate, ValidateIf } from 'class-validator';

/**
 * Optional, but not nullable: the property may be left out, and when sent it must pass its rules
 * (class-validator's @IsOptional also lets `null` through, which a PATCH would then write).
 */
export const IsOptionalNotNull = (): PropertyDecorator =>
  ValidateIf((_object, value) => value !== undefined);

/** The oldest and latest instants a date-time query accepts (PostgreSQL and JS both hold them). */
export const DATE_RANGE = {
  min: new Date('1970-01-01T00:00:00.000Z'),
  max: new Date('9999-12-31T23:59:59.999Z'),
} as const;

/** An ISO 8601 date-time, converted to a Date, between 1970 and 9999. */
export const IsDateTimeInRange = (): PropertyDecorator =>
  applyDecorators(
    Type(() => Date),
    IsDate(),
    MinDate(DATE_RANGE.min, { message: ({ property }) => `${property} must be 1970 or later` }),
    MaxDate(DATE_RANGE.max, { message: ({ property }) => `${property} must be 9999 or earlier` }),
  );

/**
 * A credential that travels in an HTTP header (a provider's token, an access token): printable
 * ASCII without spaces, as every provider issues them. Anything else would break the header.
 */
export const IsHeaderCredential = (): PropertyDecorator =>
  Matches(/^[\x21-\x7e]*$/, {
    message: ({ property }) => `${property} must be printable ASCII without spaces`,
  });
