import type { RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import type { InboundCallback } from '../telephony/telephony.types';

/**
 * The callback as the provider sent it: the public URL it called (PUBLIC_BASE_URL and the
 * original path and query, which its signature covers) and the body's exact bytes.
 */
export function inboundCallback(
  request: RawBodyRequest<Request>,
  publicBaseUrl: string,
): InboundCallback {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: request.method === 'GET' ? 'GET' : 'POST',
    url: `${publicBaseUrl}${request.originalUrl}`,
    headers,
    rawBody: request.rawBody?.toString('utf8') ?? '',
  };
}
