import type { CallEventType, WebhookEventType } from './events';

/**
 * The payloads Switchboard delivers to webhooks. Every delivery is a POST whose body is a
 * {@link WebhookDelivery}: `{ type, timestamp, data }`, signed the Standard Webhooks way
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Field names are snake_case, times
 * are ISO 8601 UTC, ids are 24-hex ObjectIds unless said otherwise. New optional fields may be
 * added at any time: receivers must ignore fields they do not know.
 */

/** What every call event's `data` carries. */
export interface CallEventBase {
  /** The call: one dial attempt of a call record (the phone log id). Stable across its events. */
  call_id: string;
  /**
   * Position of this event among the events of the same call: 1, 2, 3… with no gaps and no
   * repeats, in the order the changes committed. Deliveries may arrive out of order (retries);
   * sort or drop stale ones by `sequence`.
   */
  sequence: number;
  /** When the change happened (not when it was delivered). */
  occurred_at: string;
  /** The provider's call identifier (UUID) of this attempt, as shown in call logs. */
  request_uuid: string;
  /** The campaign (batch) the call belongs to. */
  batch_id: string;
  /** The contact row of the batch that was dialed. */
  call_record_id: string;
  /** 1 for the first dial of the contact, 2 for the first retry… */
  attempt: number;
  /** Always `outbound` today. */
  direction: 'outbound';
  /** Caller ID used, E.164. */
  from_number: string;
  /** The dialed contact number, E.164. */
  to_number: string;
  /** The voice agent that handled the call, when one is set. */
  agent_id: string | null;
  /** The contact's CSV columns (the variables the agent used), as imported. */
  variables: Record<string, string>;
}

/** `call.started`: the dial was placed with the telephony provider (it may not ring yet). */
export interface CallStartedEventData extends CallEventBase {
  /** Telephony provider that carries the call: `provider_one`, `provider_two`, `provider_three`. */
  provider: string;
}

/** Who picked up, as far as answering-machine detection can tell. */
export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/**
 * Who or what answered, as the voice agent heard it in the call's first seconds (its greeting's
 * words and length, a beep, a fax tone): a person, a voicemail greeting, a mailbox that takes no
 * messages, an automated menu, a call-screening assistant, a fax machine, or no telling.
 */
export const ANSWER_OUTCOMES = [
  'human',
  'voicemail',
  'mailbox_full',
  'ivr',
  'call_screening',
  'fax',
  'uncertain',
] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

/** What the voice agent heard answer the call, and how long after its first audio it knew. */
export interface AnswerDetection {
  /** Null when the call never reached the voice agent (no stream heard it). */
  answer_outcome: AnswerOutcome | null;
  answer_outcome_ms: number | null;
}

/** `call.answered`: the callee picked up and the agent is connected. */
export interface CallAnsweredEventData extends CallEventBase {
  answered_at: string;
  answered_by: AnsweredBy;
  /** Seconds from `call.started` to the answer. */
  ring_duration_seconds: number;
}

/**
 * Who or what ended a connected call. `service_failure`: a service the agent depends on failed
 * for good (after its retries and fallback), and the agent apologised and hung up; see
 * `failed_dependency`.
 */
export const CALL_ENDED_BY = [
  'agent',
  'callee',
  'system',
  'transfer',
  'max_duration',
  'service_failure',
] as const;
export type CallEndedBy = (typeof CALL_ENDED_BY)[number];

/**
 * The outside service whose failure ended a call: speech-to-text, text-to-speech, the language
 * model, the telephony provider's API, or the call's media stream.
 */
export const FAILED_DEPENDENCIES = ['stt', 'tts', 'llm', 'telephony', 'media'] as const;
export type FailedDependency = (typeof FAILED_DEPENDENCIES)[number];

/** A call's reply latency: how many replies answered a caller turn, their median and p95. */
export interface TurnLatencySummary {
  turns: number;
  p50_ms: number;
  p95_ms: number;
}

/** `call.completed`: a connected call ended normally. */
export interface CallCompletedEventData extends CallEventBase, AnswerDetection {
  /** Final status of the attempt (`completed`). */
  status: 'completed';
  started_at: string;
  answered_at: string | null;
  ended_at: string;
  /** Talk time in whole seconds, answer to hang-up. */
  duration_seconds: number;
  answered_by: AnsweredBy;
  ended_by: CallEndedBy;
  /** With `ended_by: service_failure`: which service failed; otherwise null. */
  failed_dependency: FailedDependency | null;
  /**
   * How long the callee waited for the agent's replies, from the end of their speech to the
   * reply's first audio, over the replies of the call; null when no reply answered a turn.
   */
  turn_latency: TurnLatencySummary | null;
  /**
   * What the callee typed on the keypad when the agent asked (its collect_digits), by the name
   * the agent gave the entry, e.g. `{ "account_number": "12345678" }`; `{}` when nothing was.
   * An agent's private digits (privateDigits) are sealed at rest and come in clear only here.
   */
  collected_digits: Record<string, string>;
  /**
   * Whether a recording will follow (`call.recording.available`) and an analysis
   * (`call.summary.generated`, `call.analysis.completed`).
   */
  recording_expected: boolean;
}

/**
 * Why a call did not connect or broke off. `interrupted`: Switchboard ended a live call itself
 * because the process serving it shut down (a deploy or restart drained it); the contact is
 * called again, whatever the batch's retry budget.
 */
export const CALL_FAILURE_REASONS = [
  'busy',
  'no_answer',
  'rejected',
  'invalid_number',
  'voicemail',
  'do_not_call',
  'outside_calling_hours',
  'provider_error',
  'network_error',
  'canceled',
  'interrupted',
  'unknown',
] as const;
export type CallFailureReason = (typeof CALL_FAILURE_REASONS)[number];

/** `call.failed`: the attempt ended without a completed conversation. */
export interface CallFailedEventData extends CallEventBase, AnswerDetection {
  status: 'failed';
  failure_reason: CallFailureReason;
  /** The provider's own status or error text, for support. */
  provider_status: string | null;
  ended_at: string;
  /** Talk time if the call was connected before it broke off, else 0. */
  duration_seconds: number;
  /** Whether Switchboard will dial the contact again, and when. */
  will_retry: boolean;
  next_attempt_at: string | null;
  /** When the agent ended the call because a service it depends on failed: which one; else null. */
  failed_dependency: FailedDependency | null;
}

/** `call.transferred`: the agent handed the call to another party. */
export interface CallTransferredEventData extends CallEventBase {
  transferred_at: string;
  /** Transfer destination: an E.164 number or a SIP URI. */
  transfer_to: string;
  /** `cold`: the agent leaves at once; `warm`: it briefs the new party first. */
  transfer_type: 'cold' | 'warm';
  /** What the agent said or the tool gave as the reason, when known. */
  reason: string | null;
  /** `warm`: the brief read to the new party before they took the call; null when `cold`. */
  summary: string | null;
}

/** `call.recording.available`: the recording of a call can be downloaded. */
export interface CallRecordingAvailableEventData extends CallEventBase {
  /** Download URL; may require the API credentials and may expire (see `expires_at`). */
  recording_url: string;
  /** When `recording_url` stops working; null when it does not expire. */
  expires_at: string | null;
  recording_duration_seconds: number;
  /** MIME type, for example `audio/mpeg` or `audio/wav`. */
  content_type: string;
  /** `mono` (mixed) or `dual` (one channel per party). */
  channels: 'mono' | 'dual';
}

/** One turn of the transcript. */
export interface TranscriptTurn {
  role: 'agent' | 'callee';
  text: string;
  /** Seconds from the answer. */
  start_seconds: number;
}

/** `call.summary.generated`: the transcript and its summary are ready. */
export interface CallSummaryGeneratedEventData extends CallEventBase {
  summary: string;
  /** The whole conversation as plain text, one `Role: text` line per turn. */
  transcript: string;
  transcript_turns: TranscriptTurn[];
  /** BCP 47 language of the conversation, for example `en-US`. */
  language: string | null;
}

/** The tone of a conversation, as the analysis judged it. */
export const CALL_SENTIMENTS = ['positive', 'neutral', 'negative', 'unknown'] as const;
export type CallSentiment = (typeof CALL_SENTIMENTS)[number];

/** `call.analysis.completed`: post-call analysis (outcome, sentiment, extracted data) is ready. */
export interface CallAnalysisCompletedEventData extends CallEventBase {
  /** Whether the call reached the campaign's goal, as the analysis judged; null: undecided. */
  successful: boolean | null;
  sentiment: CallSentiment;
  /** The disposition given to the call, for example `interested` or `callback_requested`. */
  disposition: string | null;
  /** Whether the callee asked not to be called again (they are then on the do-not-call list). */
  opted_out: boolean;
  /** Values extracted by the campaign's analysis fields, by field name. */
  extracted_data: Record<string, string | number | boolean | null>;
}

/** `webhook.test`: sent by `POST /api/webhooks/{id}/test` to that webhook only. */
export interface WebhookTestEventData {
  webhook_id: string;
  /** Always `This is a test event from Switchboard.` */
  message: string;
  occurred_at: string;
}

/** The `data` of each event type. */
export interface WebhookEventDataMap {
  'call.started': CallStartedEventData;
  'call.answered': CallAnsweredEventData;
  'call.completed': CallCompletedEventData;
  'call.failed': CallFailedEventData;
  'call.transferred': CallTransferredEventData;
  'call.recording.available': CallRecordingAvailableEventData;
  'call.summary.generated': CallSummaryGeneratedEventData;
  'call.analysis.completed': CallAnalysisCompletedEventData;
  'webhook.test': WebhookTestEventData;
}

/** The body of a delivery: `{ type, timestamp, data }`. */
export interface WebhookDelivery<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** When the event was raised (ISO 8601); the same on every retry of a delivery. */
  timestamp: string;
  data: WebhookEventDataMap[T];
}

/** Any delivery, discriminated by `type` (narrow with `switch (event.type)`). */
export type WebhookEvent = { [T in WebhookEventType]: WebhookDelivery<T> }[WebhookEventType];

/** Any call event (everything but `webhook.test`). */
export type CallEvent = { [T in CallEventType]: WebhookDelivery<T> }[CallEventType];
