import { BadRequestException } from '@nestjs/common';
import type { CallRecordPageQuery, PhoneLogField } from './batch-details.repository';
import { PHONE_LOG_FILTER_FIELDS } from './dto/batch-queries';

/** Parses the `filter` query parameter: a JSON object keyed by phone-log fields. */
export function parsePhoneLogFilter(text: string | undefined): CallRecordPageQuery['filter'] {
  if (text === undefined || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequestException('filter must be a JSON object, e.g. {"callStatus":"completed"}');
  }
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
    if (key === 'callDuration' && value !== null && !Number.isFinite(Number(value))) {
      throw new BadRequestException('filter value of callDuration must be a number');
    }
    filter[key as PhoneLogField] = value as string | number | boolean | null;
  }
  return filter;
}
