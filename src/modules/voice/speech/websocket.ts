/** A service's base URL as a WebSocket URL (an http(s) STT_/TTS_API_URL maps to ws(s)). */
export function websocketUrl(base: string, path: string, query: Record<string, string>): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.protocol === 'http:') url.protocol = 'ws:';
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** A `ws` message as text, whichever of its three shapes it arrived in. */
export function messageText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
