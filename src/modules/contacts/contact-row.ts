import { phoneCellToE164 } from './phone-cell';

/** Limits of the dynamic contact fields (documented in the API description). */
export const CONTACT_LIMITS = {
  keyPattern: /^[A-Za-z0-9_ .-]{1,64}$/,
  maxKeyLength: 64,
  maxValueLength: 1_000,
  maxFields: 50,
  /** Names the call record itself uses in responses. */
  reservedKeys: ['_id', 'phoneLogs', 'createdAt'] as readonly string[],
} as const;

export const PHONE_NUMBER_KEY = 'phoneNumber';

export type ImportErrorReason =
  | 'invalid_number'
  | 'duplicate_in_batch'
  | 'on_dnc_list'
  | 'missing_phone_number'
  | 'invalid_field';

export type PreparedContact =
  | { ok: true; phoneNumber: string; contact: Record<string, string> }
  | { ok: false; reason: ImportErrorReason; phoneNumber?: string; field?: string };

/** The key that holds the phone number: `phoneNumber`, any letter case. */
export const isPhoneNumberKey = (key: string): boolean =>
  key.length === PHONE_NUMBER_KEY.length && key.toLowerCase() === 'phonenumber';

/** Why a field name cannot be a contact field, or undefined when it can. */
export function invalidKeyReason(key: string): string | undefined {
  if (!CONTACT_LIMITS.keyPattern.test(key)) {
    return 'field names are 1-64 characters of letters, digits, space, _ . -';
  }
  if (CONTACT_LIMITS.reservedKeys.includes(key)) return 'reserved field name';
  return undefined;
}

// PostgreSQL's jsonb refuses NUL and unpaired surrogates (a JSON body can carry them).
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** A field value as a string; undefined when empty (omitted); null when not storable. */
export function fieldValue(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    return trimmed.includes('\u0000') || UNPAIRED_SURROGATE.test(trimmed) ? null : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return null;
}

/** A short form of what was sent as the number, for the error report. */
function shown(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim().slice(0, 40) || undefined;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value).slice(0, 40);
  return undefined;
}

function toPhoneText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    // JSON numbers: 14155551234 or 1.4155551234e10 both print as 14155551234.
    return Number.isInteger(value) ? value.toFixed(0) : String(value);
  }
  return undefined;
}

export type ReadPhoneNumber =
  | { ok: true; phoneNumber: string }
  | { ok: false; reason: 'missing_phone_number' | 'invalid_number'; phoneNumber?: string };

/**
 * A row's number as sent (a string or a JSON number) in E.164, or why not: missing (absent,
 * null or blank) or invalid (then with a short form of what was sent).
 */
export function readPhoneNumber(raw: unknown): ReadPhoneNumber {
  if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) {
    return { ok: false, reason: 'missing_phone_number' };
  }
  const text = toPhoneText(raw);
  const phoneNumber = text === undefined ? undefined : phoneCellToE164(text);
  if (!phoneNumber) return { ok: false, reason: 'invalid_number', phoneNumber: shown(raw) };
  return { ok: true, phoneNumber };
}

/**
 * Applies the contact rules to one row: its phone number normalized to E.164 and every other
 * non-empty field kept as a string. One reason per rejected row, in this order: missing or
 * invalid number, then the first invalid field.
 */
export function prepareContact(row: unknown): PreparedContact {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { ok: false, reason: 'missing_phone_number' };
  }
  let rawPhone: unknown;
  let phoneSeen = false;
  let fieldError: { field: string } | undefined;
  // No prototype: a field named __proto__ is kept like any other.
  const contact = Object.create(null) as Record<string, string>;
  let fields = 0;
  for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
    if (isPhoneNumberKey(key)) {
      if (!phoneSeen) rawPhone = value;
      phoneSeen = true;
      continue;
    }
    if (fieldError) continue;
    const text = fieldValue(value);
    if (text === undefined) continue;
    if (
      text === null ||
      text.length > CONTACT_LIMITS.maxValueLength ||
      invalidKeyReason(key) !== undefined ||
      (fields += 1) > CONTACT_LIMITS.maxFields
    ) {
      fieldError = { field: key.slice(0, CONTACT_LIMITS.maxKeyLength + 1) };
      continue;
    }
    contact[key] = text;
  }
  const phone = readPhoneNumber(rawPhone);
  if (!phone.ok) return phone;
  const { phoneNumber } = phone;
  if (fieldError) return { ok: false, reason: 'invalid_field', phoneNumber, ...fieldError };
  return { ok: true, phoneNumber, contact };
}
