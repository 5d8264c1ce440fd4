import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsObject, IsOptional } from 'class-validator';
import { CONTACT_LIMITS } from '../contact-row';
import { RowsCheckTheirOwnText } from '../../../common/storable-text';

/** Contacts per JSON request; a CSV upload has no row limit, only the upload size limit. */
export const MAX_JSON_CONTACTS = 10_000;

/** The rules every contact follows, JSON or CSV; shown in the API description. */
export const CONTACT_RULES =
  'Each contact needs phoneNumber (normalized to E.164; a number without + is read with its ' +
  'country code). Every other field is a dynamic contact field: names of 1-' +
  `${CONTACT_LIMITS.maxKeyLength} characters (letters, digits, space, _ . -), not ` +
  `${CONTACT_LIMITS.reservedKeys.join(', ')}; values are strings of at most ` +
  `${CONTACT_LIMITS.maxValueLength} characters (numbers and booleans become strings; empty ` +
  `values are left out); at most ${CONTACT_LIMITS.maxFields} fields per contact. A value with a ` +
  'NUL character or an unpaired UTF-16 surrogate rejects its contact (invalid_field).';

/** The CSV file part, as documented on append-contacts and create-batch. */
export const CSV_UPLOAD_DESCRIPTION =
  'multipart/form-data: a CSV (UTF-8, comma-separated) in the field `file`, streamed as it ' +
  'arrives, at most UPLOAD_MAX_BYTES (20 MiB by default; larger answers 413). The header row ' +
  'names the columns; one must be phoneNumber (any letter case), the others become contact ' +
  'fields, and an invalid or reserved column name answers 400. Survives spreadsheet damage: a ' +
  'BOM, blank lines, spaces and quotes around cells, a stripped +, ="..." and scientific ' +
  'notation when it carries every digit (1.4155551234E+10; a shortened 1.41556E+10 is ' +
  'invalid_number, its last digits are lost).';

export class ImportContactsDto {
  @ApiPropertyOptional({
    type: 'array',
    maxItems: MAX_JSON_CONTACTS,
    items: { type: 'object', additionalProperties: { type: 'string' } },
    example: [
      { phoneNumber: '+14155551234', name: 'Ada', account_id: 'A-1', priority: 'high' },
      { phoneNumber: '14155551235', name: 'Grace' },
    ],
    description:
      `Required with application/json. At most ${MAX_JSON_CONTACTS} per request, and the ` +
      `body within JSON_BODY_LIMIT_BYTES (1 MiB by default): upload a CSV for more. ${CONTACT_RULES}`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_JSON_CONTACTS)
  @IsObject({ each: true, message: 'each contact must be an object' })
  @RowsCheckTheirOwnText()
  contacts?: Record<string, unknown>[];
}
