import fc from 'fast-check';
import { judgeCall } from '../../../../test/support/compliance-oracle';
import type { BatchWindow, Callee } from './calling-window.types';
import { evaluateCallingWindow, nextAllowedAt } from './calling-window';

// Differential and minimality properties against the independent oracle (Intl brute force):
// for random batches, callees (every state and province with a rule) and instants (biased to DST
// changes and holidays), the rules allow exactly what the oracle finds legal, and nextAllowedAt
// is allowed, and nothing before it is.

const ZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/St_Johns',
  'America/Santiago',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
];
const NUMBERS = [
  '+12125550123', // NY
  '+13055550123', // FL, capped
  '+18505550123', // FL, Central + Eastern
  '+14055550123', // OK, capped
  '+12065550123', // WA, 20:00
  '+14105550123', // MD, capped
  '+12085550123', // ID, Mountain + Pacific
  '+19075550123', // AK
  '+18085550123', // HI
  '+16055550123', // SD, Central + Mountain
  '+17875550123', // PR
  '+12045550123', // Manitoba (CRTC hours)
  '+14165550123', // Toronto (CRTC hours)
  '+16045550123', // Vancouver (CRTC hours, BC statutory holidays)
  '+18675550123', // NT/NU/YT: five zones
  '+19025550123', // NS/PE
  '+18015550123', // UT: no Sundays, legal holidays
  '+12055550123', // AL: 08:00–20:00, no Sundays, holidays
  '+16015550123', // MS: no Sundays, Central Standard Time
  '+14015550123', // RI: weekday and Saturday hours, holidays
  '+17135550123', // TX: Sunday from noon
  '+15025550123', // KY: from 10:00
  '+12035550123', // CT: 09:00–20:00
  '+15055550123', // NM: from 09:00
  '+16175550123', // MA: to 20:00
  '+13075550123', // WY: to 20:00
  '+18005550123', // toll-free: country zones
  '+19995550123', // unknown
  '+442071234567', // London
  '+61291234567', // Sydney
  '+61891234567', // Perth
  '+493012345678', // Berlin (country)
  '+919812345678', // India
];
const TRANSITIONS = [
  '2026-03-08T07:00:00Z',
  '2026-11-01T06:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-10-25T01:00:00Z',
  '2026-04-04T16:00:00Z',
  '2026-10-03T16:00:00Z',
  '2026-04-04T15:00:00Z', // Lord Howe (30-minute DST)
  // Holidays and their observed days, and weekends around them.
  '2026-02-17T12:00:00Z', // Mardi Gras (AL)
  '2026-04-03T12:00:00Z', // Good Friday (UT, BC)
  '2026-05-18T12:00:00Z', // Victoria Day (BC)
  '2026-07-01T12:00:00Z', // Canada Day
  '2026-07-04T12:00:00Z', // Independence Day, a Saturday
  '2026-07-24T12:00:00Z', // Pioneer Day (UT)
  '2026-08-10T12:00:00Z', // Victory Day (RI)
  '2026-11-03T12:00:00Z', // Election Day (RI)
  '2026-11-26T12:00:00Z', // Thanksgiving
  '2026-12-25T12:00:00Z', // Christmas
].map((text) => Date.parse(text));
const ALL_DAYS: number[] = [0, 1, 2, 3, 4, 5, 6];
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3_600_000;

const clockTime = fc.oneof(
  fc.constant(null),
  fc
    .tuple(
      fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 23 })),
      fc.integer({ min: 0, max: 59 }),
    )
    .map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`),
);
const batchArbitrary: fc.Arbitrary<BatchWindow> = fc
  .record({
    timezone: fc.constantFrom(...ZONES),
    start: clockTime,
    end: clockTime,
    allowedDays: fc.oneof(
      fc.subarray(ALL_DAYS, { minLength: 1 }),
      fc.constant(ALL_DAYS),
      fc.constant<number[]>([]),
    ),
    enforceCalleeLocalHours: fc.boolean(),
  })
  .map(({ start, end, ...rest }) => ({
    ...rest,
    callingHourStart: start === null || end === null ? null : start,
    callingHourEnd: start === null || end === null ? null : end,
  }));
const instant = fc.oneof(
  fc.integer({ min: YEAR_START, max: YEAR_START + 365 * 24 * HOUR }),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -48 * HOUR, max: 48 * HOUR }))
    .map(([at, delta]) => at + delta),
);
const scenario = fc.record({
  batch: batchArbitrary,
  phoneNumber: fc.constantFrom(...NUMBERS),
  timezone: fc.oneof(fc.constant(undefined), fc.constantFrom(...ZONES), fc.constant('Not/AZone')),
  now: instant,
  attemptAgesMinutes: fc.array(fc.integer({ min: 0, max: 30 * 60 }), { maxLength: 4 }),
  samples: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 10, maxLength: 10 }),
});

describe('calling window properties (against the compliance oracle)', () => {
  it('allows exactly what the oracle finds legal; nextAllowedAt is allowed and minimal', () => {
    fc.assert(
      fc.property(
        scenario,
        ({ batch, phoneNumber, timezone, now, attemptAgesMinutes, samples }) => {
          const recentAttempts = attemptAgesMinutes.map((age) => new Date(now - age * 60_000));
          const callee: Callee = { phoneNumber, timezone, recentAttempts };
          const legalAt = (at: number): boolean =>
            judgeCall({
              at: new Date(at),
              phoneNumber,
              contactTimezone: timezone,
              batch,
              previousCalls: recentAttempts,
            }).legal;
          const allowedAt = (at: number): boolean =>
            evaluateCallingWindow(batch, callee, new Date(at)).allowed;

          const decision = evaluateCallingWindow(batch, callee, new Date(now));
          expect(decision.allowed).toBe(legalAt(now));
          const next = nextAllowedAt(batch, callee, new Date(now));
          if (decision.allowed) {
            expect(next?.getTime()).toBe(now);
            return;
          }
          expect(next).toEqual(decision.nextAllowedAt);
          if (next === null) {
            for (const fraction of samples)
              expect(legalAt(now + fraction * 400 * 24 * HOUR)).toBe(false);
            return;
          }
          const at = next.getTime();
          expect(at).toBeGreaterThan(now);
          expect(allowedAt(at)).toBe(true);
          expect(legalAt(at)).toBe(true);
          expect(allowedAt(at - 60_000)).toBe(false);
          for (const fraction of samples) {
            const before = now + Math.floor(fraction * (at - now));
            if (before < at) expect(legalAt(before)).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
