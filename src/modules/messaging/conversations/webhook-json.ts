/** Readers of the platform's JSON that never throw: anything malformed reads as absent. */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objects = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter(isObject) : [];

/** A non-empty string cut to `max` characters, else undefined. */
export const str = (value: unknown, max = 4096): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;

export const finite = (value: unknown): number | undefined => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
};
