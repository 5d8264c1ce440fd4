import type { BatchWindow, Callee, WindowDecision } from './calling-window.types';

export type { BatchWindow, Callee, WindowDecision } from './calling-window.types';

/**
 * Whether a call to `callee` may be placed at `now` under the batch's window and, unless the
 * batch opted out, the callee's local hours and state rules. Pure; DST-correct.
 *
 * PLACEHOLDER until the calling-window rules land: allows every call.
 */
export function evaluateCallingWindow(
  batch: BatchWindow,
  callee: Callee,
  now: Date,
): WindowDecision {
  return {
    allowed: true,
    permit: { placeholder: true, at: now.toISOString(), batch, to: callee.phoneNumber },
  };
}

/** The first instant at or after `notBefore` when evaluateCallingWindow allows the call; null: never. */
export function nextAllowedAt(batch: BatchWindow, callee: Callee, notBefore: Date): Date | null {
  const decision = evaluateCallingWindow(batch, callee, notBefore);
  return decision.allowed ? notBefore : decision.nextAllowedAt;
}
