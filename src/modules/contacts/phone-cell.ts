import { toE164 } from '../../common/phone-number';

// 1.4155551234E+10, +1.4155551234e10: what a spreadsheet writes for a long number.
const SCIENTIFIC = /^\+?(\d+)(?:\.(\d+))?[eE]\+?(\d{1,2})$/;
// 14155551234.0: a number that went through a float column.
const ZERO_FRACTION = /^(\+?\d+)\.0+$/;
// ="+14155551234": the spreadsheet trick that keeps a number as text.
const FORMULA_TEXT = /^=\s*"(.*)"$/;
const SURROUNDING = /^['"\s]+|['"\s]+$/g;

/**
 * The digits of a number in scientific notation, or undefined when it is not a whole number or
 * when digits would have to be invented: 1.41556E+10 is what a spreadsheet writes after dropping
 * the last digits of 14155551234, and expanding it to 14155600000 would dial a stranger.
 */
export function expandScientific(value: string): string | undefined {
  const match = SCIENTIFIC.exec(value);
  if (!match) return undefined;
  const [, whole, fraction = '', exponentText] = match;
  const exponent = Number(exponentText);
  if (fraction.length > exponent) {
    // Digits left after the decimal point must all be zeros for a whole number.
    if (!/^0*$/.test(fraction.slice(exponent))) return undefined;
    return `${whole}${fraction.slice(0, exponent)}`;
  }
  if (fraction.length < exponent) return undefined;
  return `${whole}${fraction}`;
}

/**
 * A phone number cell as people and spreadsheets write it, in E.164; undefined when it is not a
 * valid number. Survives: surrounding spaces and quotes, a leading apostrophe (also the export's
 * formula escaping), a stripped `+` (read as international digits), `="..."`, scientific
 * notation and a `.0` float suffix.
 */
export function phoneCellToE164(raw: string): string | undefined {
  let value = raw.trim();
  const asText = FORMULA_TEXT.exec(value);
  if (asText) value = asText[1];
  value = value.replace(SURROUNDING, '');
  if (value.length > 40) return undefined;
  if (/[eE]/.test(value)) {
    const expanded = expandScientific(value);
    if (expanded === undefined) return undefined;
    value = expanded;
  } else {
    const zeroFraction = ZERO_FRACTION.exec(value);
    if (zeroFraction) value = zeroFraction[1];
  }
  return toE164(value);
}
