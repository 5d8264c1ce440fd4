import { BadRequestException } from '@nestjs/common';
import type { CallRecordPageQuery, PhoneLogField } from './batch-details.repository';
import { PHONE_LOG_FILTER_FIELDS } from './dto/batch-queries';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../common/storable-text';

const isInt4 = (value: number) =>
  Number.isInteger(value) && value >= -2_147_483_648 && value <= 2_147_483_647;

/** Parses the `filter` query parameter: a JSON object keyed by phone-log fields. */
export function parsePhoneLogFilter(text: string | undefined): CallRecordPageQuery['filter'] {
  if (text === undefined || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequestException('filter must be a JSON object, e.g. {"callStatus":"completed"}');
  }
  return phoneLogFilterOf(parsed);
}

/**
 * A filter object keyed by phone-log fields, checked (400 otherwise): the batch details query's
 * `filter` once parsed, and re-dial's.
 */
export function phoneLogFilterOf(parsed: unknown): CallRecordPageQuery['filter'] {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new BadRequestException('filter must be a JSON object, e.g. {"callStatus":"completed"}');
  }
  const filter: CallRecordPageQuery['filter'] = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(PHONE_LOG_FILTER_FIELDS as readonly string[]).includes(key)) {
      throw new BadRequestException(
        `filter key ${key} is not a phone-log field (${PHONE_LOG_FILTER_FIELDS.join(', ')})`,
      );
    }
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
      throw new BadRequestException(
        `filter value of ${key} must be a string, number, boolean or null`,
      );
    }
    if (typeof value === 'string' && !isStorableText(value)) {
      throw new BadRequestException(`filter value of ${key} ${UNSTORABLE_TEXT_MESSAGE}`);
    }
    // call_duration is an integer column: anything else could never match, or overflows.
    if (key === 'callDuration' && value !== null && !isInt4(Number(value))) {
      throw new BadRequestException(
        'filter value of callDuration must be a whole number of seconds (at most 2147483647)',
      );
    }
    filter[key as PhoneLogField] = value as string | number | boolean | null;
  }
  return filter;
}
