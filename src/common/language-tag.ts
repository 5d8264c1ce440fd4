import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Longest language tag accepted: BCP 47 tags in practice stay well under it. */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

/**
 * The canonical form of a well-formed BCP 47 language tag (`EN-us` → `en-US`,
 * `art-lojban` → `jbo`), or undefined when the text is not one. Intl applies the CLDR
 * canonicalization rules, so what is stored is what speech engines expect.
 */
export function canonicalLanguageTag(text: string): string | undefined {
  if (text.length > MAX_LANGUAGE_TAG_LENGTH || !/^[A-Za-z0-9-]+$/.test(text)) return undefined;
  try {
    return Intl.getCanonicalLocales(text)[0];
  } catch {
    return undefined;
  }
}

/** A BCP 47 language tag; pair it with toCanonicalLanguageTag so the canonical form is stored. */
export function IsLanguageTag(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isLanguageTag',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && canonicalLanguageTag(value) !== undefined,
        defaultMessage: (args) =>
          `${args?.property ?? 'language'} must be a BCP 47 language tag such as en-US`,
      },
    },
    options,
  );
}

/** For @Transform: a language tag in canonical form; anything else as sent, for validation. */
export const toCanonicalLanguageTag = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? (canonicalLanguageTag(value) ?? value) : value;
