import type { InboundCallback, ParsedCallStatus, ProviderCallEvent } from '../telephony.types';

interface TelnyxEvent {
  data?: {
    event_type?: string;
    payload?: {
      call_control_id?: string;
      client_state?: string;
      hangup_cause?: string;
      recording_urls?: { mp3?: string; wav?: string };
    };
  };
}

// Hang-ups that end a connected call; any other cause means the call never connected.
const NORMAL_HANGUPS = new Set(['normal_clearing', 'time_limit']);

/** A Telnyx Call Control webhook (JSON `{data:{event_type,payload}}`) as a call event. */
export function parseTelnyxStatusCallback(callback: InboundCallback): ParsedCallStatus {
  let event: TelnyxEvent;
  try {
    event = JSON.parse(callback.rawBody) as TelnyxEvent;
  } catch {
    return { event: null, providerStatus: 'unparseable' };
  }
  const type = event.data?.event_type ?? '';
  const payload = event.data?.payload ?? {};
  let kind: ProviderCallEvent | null = null;
  if (type === 'call.initiated') kind = 'call.started';
  else if (type === 'call.answered') kind = 'call.answered';
  else if (type === 'call.hangup')
    kind = NORMAL_HANGUPS.has(payload.hangup_cause ?? '') ? 'call.completed' : 'call.failed';
  else if (type === 'call.recording.saved') kind = 'call.recording.available';
  return {
    event: kind,
    providerCallId: payload.call_control_id,
    providerStatus: type,
    hangupCause: payload.hangup_cause,
    recordingUrl: payload.recording_urls?.mp3 ?? payload.recording_urls?.wav,
    clientState: payload.client_state
      ? Buffer.from(payload.client_state, 'base64').toString('utf8')
      : undefined,
  };
}
