/** Answering-machine detection's verdict in our words (contract: human, machine, unknown). */
export type AmdVerdict = 'human' | 'machine' | 'unknown';

/** Twilio `AnsweredBy`: human | machine_start | machine_end_* | fax | unknown. */
export function twilioAnsweredBy(value: string | null | undefined): AmdVerdict | undefined {
  if (!value) return undefined;
  if (value === 'human') return 'human';
  if (value.startsWith('machine') || value === 'fax') return 'machine';
  return 'unknown';
}

/** Whether the provider's verdict is a fax machine (Twilio `fax`, Telnyx `fax_detected`). */
export function isFaxVerdict(value: string | null | undefined): boolean {
  return value === 'fax' || value?.startsWith('fax_') === true;
}

/** Plivo's `Machine=true|false`: on its asynchronous verdict (Event=MachineDetection) or an answer. */
export function plivoAnsweredBy(value: string | undefined): AmdVerdict | undefined {
  if (value === 'true') return 'machine';
  if (value === 'false') return 'human';
  return undefined;
}

/**
 * Telnyx `result` of call.machine.detection.ended (human | machine | not_sure) and of the premium
 * detection (human_residence, human_business, machine, silence, fax_detected, not_sure).
 */
export function telnyxAnsweredBy(value: string | undefined): AmdVerdict | undefined {
  if (!value) return undefined;
  if (value.startsWith('human')) return 'human';
  if (value === 'machine' || value.startsWith('fax')) return 'machine';
  return 'unknown';
}
