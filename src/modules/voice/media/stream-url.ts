import type { Integration } from '../../telephony/telephony.types';

/** The path of the media WebSocket; `integration` names the provider's wire format. */
export const STREAM_PATH = /^\/api\/telephony\/(provider_one|provider_two|provider_three)\/stream$/;

/** `{PUBLIC_BASE_URL as ws:/wss:}/api/telephony/{integration}/stream` (contract §8). */
export function streamUrl(publicBaseUrl: string, integration: Integration): string {
  const url = new URL(`${publicBaseUrl}/api/telephony/${integration}/stream`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
