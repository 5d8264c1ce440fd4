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

/**
 * A callback's parameters: the form body of a POST; for a GET the provider appends them to the
 * URL's query (beside our own `token` and `call`, which no provider parameter shares a name with).
 */
export function callbackFields(callback: {
  method: 'GET' | 'POST';
  url: string;
  rawBody: string;
}): Record<string, string> {
  if (callback.method === 'GET') return Object.fromEntries(new URL(callback.url).searchParams);
  return formFields(callback.rawBody);
}

/** MIME type of a recording file from its URL's extension (providers name mp3 or wav files). */
export function recordingContentType(url: string, fallback: string): string {
  const path = url.split('?')[0].toLowerCase();
  if (path.endsWith('.mp3')) return 'audio/mpeg';
  if (path.endsWith('.wav')) return 'audio/wav';
  return fallback;
}

/** A whole number of seconds from a provider's text field, or undefined. */
export function seconds(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? Math.round(parsed) : undefined;
}
