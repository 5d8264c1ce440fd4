import { isFaxVerdict, telnyxAnsweredBy } from '../answered-by';
import { recordingContentType } from '../callback-params';
import type {
  CallbackCallStatus,
  HangupSide,
  InboundCallback,
  ParsedCallStatus,
  ProviderCallEvent,
} from '../telephony.types';

interface TelnyxEvent {
  data?: {
    event_type?: string;
    occurred_at?: string;
    payload?: {
      call_control_id?: string;
      client_state?: string;
      hangup_cause?: string;
      hangup_source?: string;
      result?: string;
      digits?: string;
      channels?: string;
      recording_started_at?: string;
      recording_ended_at?: string;
      recording_urls?: { mp3?: string; wav?: string };
    };
  };
}

// Hang-ups that end a connected call; any other cause means the call never connected.
const NORMAL_HANGUPS = new Set(['normal_clearing', 'time_limit']);

/** call.hangup's hangup_cause as a final status (telephony-providers.md §3, §5). */
const HANGUP_STATUSES: Record<string, CallbackCallStatus> = {
  normal_clearing: 'completed',
  time_limit: 'completed',
  user_busy: 'busy',
  timeout: 'no-answer',
  no_answer: 'no-answer',
  originator_cancel: 'canceled',
  call_rejected: 'failed',
  not_found: 'failed',
  unspecified: 'failed',
};

// On our outbound calls the caller is us.
const HANGUP_SIDES: Record<string, HangupSide> = { caller: 'us', callee: 'callee' };

const DETECTION_ENDED = new Set([
  'call.machine.detection.ended',
  'call.machine.premium.detection.ended',
]);
const GREETING_ENDED = new Set([
  'call.machine.greeting.ended',
  'call.machine.premium.greeting.ended',
]);

/** Recording URLs of call.recording.saved stop working after 10 minutes. */
const RECORDING_URL_SECONDS = 600;

/** A Telnyx Call Control webhook (JSON `{data:{event_type,payload}}`) as a call event. */
export function parseTelnyxStatusCallback(callback: InboundCallback): ParsedCallStatus {
  let event: TelnyxEvent;
  try {
    event = JSON.parse(callback.rawBody) as TelnyxEvent;
  } catch {
    return { event: null, providerStatus: 'unparseable' };
  }
  if (event === null || typeof event !== 'object')
    return { event: null, providerStatus: 'unparseable' };
  const type = typeof event.data?.event_type === 'string' ? event.data.event_type : '';
  const payload = event.data?.payload ?? {};
  let kind: ProviderCallEvent | null = null;
  let callStatus: CallbackCallStatus | undefined;
  if (type === 'call.initiated') {
    kind = 'call.started';
    callStatus = 'queued';
  } else if (type === 'call.answered') {
    kind = 'call.answered';
    callStatus = 'in-progress';
  } else if (type === 'call.hangup') {
    kind = NORMAL_HANGUPS.has(payload.hangup_cause ?? '') ? 'call.completed' : 'call.failed';
    callStatus = HANGUP_STATUSES[payload.hangup_cause ?? ''] ?? 'failed';
  } else if (type === 'call.recording.saved') kind = 'call.recording.available';
  const recordingUrl = payload.recording_urls?.mp3 ?? payload.recording_urls?.wav;
  // call.machine[.premium].detection.ended carries the verdict; …greeting.ended says the
  // machine's greeting is over (its beep heard): no verdict of its own.
  const detection = DETECTION_ENDED.has(type);
  const greetingEnded = GREETING_ENDED.has(type);
  return {
    event: kind,
    callStatus,
    providerCallId: payload.call_control_id,
    providerStatus: type,
    hangupCause: payload.hangup_cause,
    hangupSide: HANGUP_SIDES[payload.hangup_source ?? ''],
    recordingUrl,
    recording:
      kind === 'call.recording.available' && recordingUrl
        ? {
            durationSeconds: secondsBetween(
              payload.recording_started_at,
              payload.recording_ended_at,
            ),
            channels: payload.channels === 'dual' ? 'dual' : 'mono',
            contentType: recordingContentType(recordingUrl, 'audio/mpeg'),
            validForSeconds: RECORDING_URL_SECONDS,
          }
        : undefined,
    answeredBy: detection
      ? telnyxAnsweredBy(payload.result)
      : greetingEnded
        ? 'machine'
        : undefined,
    fax: (detection && isFaxVerdict(payload.result)) || undefined,
    greetingEnded: greetingEnded || undefined,
    digits: type === 'call.gather.ended' ? (payload.digits ?? '') : undefined,
    connected:
      type === 'call.hangup' && NORMAL_HANGUPS.has(payload.hangup_cause ?? '') ? true : undefined,
    clientState:
      typeof payload.client_state === 'string'
        ? Buffer.from(payload.client_state, 'base64').toString('utf8')
        : undefined,
    occurredAt: event.data?.occurred_at,
  };
}

function secondsBetween(from: string | undefined, to: string | undefined): number | undefined {
  if (!from || !to) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : undefined;
}
