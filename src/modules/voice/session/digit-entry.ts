/** What the model's collect_digits asked the caller to type. */
export interface DigitEntry {
  /** What the digits are, as the model named it (e.g. account_number). */
  name: string;
  minDigits: number;
  maxDigits: number;
}

/** Longest entry collect_digits takes (a card number is 19 digits). */
export const MAX_ENTRY_DIGITS = 32;

/**
 * The keys of one entry, gathered exactly as typed: complete once it holds maxDigits keys or
 * the caller presses `#` (the usual "end of entry" key, not kept).
 */
export class DigitCollector {
  private keys = '';
  readonly startedAt = new Date().toISOString();

  constructor(readonly entry: DigitEntry) {}

  /** Adds a key; true when the entry is complete. */
  press(key: string): boolean {
    if (key === '#') return true;
    this.keys += key;
    return this.keys.length >= this.entry.maxDigits;
  }

  get digits(): string {
    return this.keys;
  }
}

/**
 * The caller turn an entry makes, for the model and the transcript: the digits, or with
 * `hidden` (the agent's privateDigits) only how many were typed.
 */
export function digitsTurn({ name, minDigits }: DigitEntry, digits: string, hidden: boolean) {
  if (digits === '') return `[The caller entered no digits for ${name}]`;
  const shown = hidden ? `${digits.length} digits (kept from you)` : digits;
  const short = digits.length < minDigits ? `: fewer than the ${minDigits} asked` : '';
  return `[The caller entered ${shown} for ${name}${short}]`;
}
