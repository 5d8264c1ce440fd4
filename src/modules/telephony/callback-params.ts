import { timingSafeEqual } from 'node:crypto';

/** Form parameters grouped by key, each key's values in arrival order. */
export function formParams(rawBody: string): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(rawBody)) {
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  return grouped;
}

/** The first value of each form parameter. */
export function formFields(rawBody: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(rawBody));
}

/** Code-unit order, as the providers' SDKs sort. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function headerValue(
  headers: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
