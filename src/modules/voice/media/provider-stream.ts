import { DTMF_KEYS } from '../audio/dtmf';
import type { InboundMediaEvent, MediaOutput } from './media-stream';

/** Where a gateway writes its provider's messages (the WebSocket, or a test's array). */
export interface MessageSink {
  /** One message, already serialised as JSON text. */
  send(text: string): void;
  /** `refused`: closed as a policy violation (no valid stream token), else normally. */
  close(refused?: boolean): void;
}

/** One provider's wire format: its messages in, InboundMediaEvents out, and MediaOutput back. */
export interface ProviderStream extends MediaOutput {
  /**
   * What a parsed JSON message means; null for one the session need not know (connected…), or
   * several events when a frame put back in order lets those held behind it through.
   */
  read(message: Record<string, unknown>): InboundMediaEvent | InboundMediaEvent[] | null;
}

/**
 * A media message's JSON text around its base64 payload, built once per stream: each 20 ms frame
 * of each call is then one base64 and two concatenations, not an object and a JSON.stringify.
 * `head` is the message before the payload with a `"payload"` key as its last member;
 * the result is byte for byte what JSON.stringify of the message would give.
 */
export function mediaMessage(head: Record<string, unknown>): (ulaw: Buffer) => string {
  const json = JSON.stringify(head);
  // `…"payload":""}}` → the text before and after the payload's (empty) string.
  const at = json.lastIndexOf('""');
  const prefix = json.slice(0, at + 1);
  const suffix = json.slice(at + 1);
  return (ulaw) => prefix + ulaw.toString('base64') + suffix;
}

/** A field of a parsed message as an object; {} when absent or not one. */
export const objectAt = (value: unknown, key: string): Record<string, unknown> => {
  const field =
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  return typeof field === 'object' && field !== null && !Array.isArray(field)
    ? (field as Record<string, unknown>)
    : {};
};

/** A field of a parsed message as a string; undefined when absent or not one. */
export const stringAt = (value: Record<string, unknown>, key: string): string | undefined =>
  typeof value[key] === 'string' ? value[key] : undefined;

/** A media message's base64 payload as bytes; null when it carries none. */
export const payloadOf = (message: Record<string, unknown>): Buffer | null => {
  const payload = stringAt(objectAt(message, 'media'), 'payload');
  return payload ? Buffer.from(payload, 'base64') : null;
};

/** A μ-law media message as an audio event (Twilio, Plivo); null when it carries no payload. */
export const audioEvent = (message: Record<string, unknown>): InboundMediaEvent | null => {
  const ulaw = payloadOf(message);
  return ulaw ? { kind: 'audio', ulaw } : null;
};

/** A played mark, from its name wherever the provider puts it. */
export const markEvent = (name: string | undefined): InboundMediaEvent | null =>
  name === undefined ? null : { kind: 'mark', name };

/**
 * A key the caller pressed: Twilio, Plivo and Telnyx all send `{event: 'dtmf', dtmf: {digit}}`
 * (Twilio adds the track). Null for anything but one keypad key.
 */
export const dtmfEvent = (message: Record<string, unknown>): InboundMediaEvent | null => {
  const digit = stringAt(objectAt(message, 'dtmf'), 'digit')?.toUpperCase();
  return digit?.length === 1 && DTMF_KEYS.includes(digit) ? { kind: 'dtmf', digit } : null;
};
