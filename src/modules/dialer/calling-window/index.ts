export type { BatchWindow, Callee, WindowDecision } from './calling-window.types';
export {
  allowedUntil,
  evaluateCallingWindow,
  nextAllowedAt,
  CALLING_WINDOW_RULES,
} from './calling-window';
export { calleeZonesOf, type CalleeZones, type ZoneSource } from './callee-zones';
export {
  CANADA,
  JURISDICTION_RULES,
  US_FEDERAL,
  type JurisdictionRule,
} from './jurisdiction-rules';
export { HOLIDAY_CALENDARS, holidayNamesOn, isHoliday, type HolidayCalendar } from './holidays';
