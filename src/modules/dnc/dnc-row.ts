import { fieldValue, isPhoneNumberKey, readPhoneNumber } from '../contacts/contact-row';

/** Longest `type` or `source` of an imported entry (the same bound as DNC add's `type`). */
export const DNC_TEXT_MAX = 100;

/** The columns (CSV) or keys (JSON) an import reads, any letter case; others are ignored. */
export const DNC_COLUMNS = { type: 'type', reason: 'reason', source: 'source' } as const;

export type DncRowErrorReason = 'missing_phone_number' | 'invalid_number' | 'invalid_field';

export type PreparedDncRow =
  | { ok: true; phoneNumber: string; type: string | null; source: string | null }
  | { ok: false; reason: DncRowErrorReason; phoneNumber?: string; field?: string };

/** An optional text column: its text (null when absent or empty), or the key holding bad text. */
interface TextCell {
  text: string | null;
  invalidKey?: string;
}

/** The value under `name` in any letter case. */
function textCell(row: Record<string, unknown>, name: string): TextCell {
  for (const [key, value] of Object.entries(row)) {
    if (key.toLowerCase() !== name) continue;
    const text = fieldValue(value);
    if (text === null || (text !== undefined && text.length > DNC_TEXT_MAX)) {
      return { text: null, invalidKey: key };
    }
    return { text: text ?? null };
  }
  return { text: null };
}

/**
 * One row of a DNC import (an object, or for JSON a bare number): its number in E.164 (as the contacts import reads it: spreadsheet
 * damage survived, JSON numbers taken), its `type` (or `reason`, when no type is given) and its
 * `source`. One reason per rejected row: missing or invalid number first, then the first
 * unstorable text (over DNC_TEXT_MAX characters, NUL, not a string or number).
 */
export function prepareDncRow(row: unknown): PreparedDncRow {
  // A JSON list of bare numbers: ["+14155551234", 14155551235].
  if (typeof row === 'string' || typeof row === 'number')
    return prepareDncRow({ phoneNumber: row });
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { ok: false, reason: 'missing_phone_number' };
  }
  const values = row as Record<string, unknown>;
  const phoneKey = Object.keys(values).find(isPhoneNumberKey);
  const phone = readPhoneNumber(phoneKey === undefined ? undefined : values[phoneKey]);
  if (!phone.ok) return phone;
  const { phoneNumber } = phone;

  const type = textCell(values, DNC_COLUMNS.type);
  const reason = textCell(values, DNC_COLUMNS.reason);
  const source = textCell(values, DNC_COLUMNS.source);
  const invalid = [type, reason, source].find((cell) => cell.invalidKey !== undefined);
  if (invalid)
    return { ok: false, reason: 'invalid_field', phoneNumber, field: invalid.invalidKey };
  return { ok: true, phoneNumber, type: type.text ?? reason.text, source: source.text };
}
