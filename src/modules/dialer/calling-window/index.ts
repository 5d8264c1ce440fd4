export type { BatchWindow, Callee, WindowDecision } from './calling-window.types';
export {
  allowedUntil,
  evaluateCallingWindow,
  nextAllowedAt,
  CALLING_WINDOW_RULES,
} from './calling-window';
export { calleeZonesOf, type CalleeZones, type ZoneSource } from './callee-zones';
export { STATE_RULES, type StateRule } from './state-rules';
