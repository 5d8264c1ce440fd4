import type { BatchWindow, Callee, WindowDecision } from './calling-window.types';
import { allowedUntil, evaluateCallingWindow, nextAllowedAt } from './calling-window';

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = [1, 2, 3, 4, 5];

function batch(overrides: Partial<BatchWindow> = {}): BatchWindow {
  return {
    timezone: 'UTC',
    callingHourStart: null,
    callingHourEnd: null,
    allowedDays: EVERY_DAY,
    enforceCalleeLocalHours: true,
    ...overrides,
  };
}
function window(start: string, end: string, timezone: string, days = EVERY_DAY): BatchWindow {
  return batch({
    timezone,
    callingHourStart: start,
    callingHourEnd: end,
    allowedDays: days,
    enforceCalleeLocalHours: false,
  });
}
function callee(phoneNumber: string, overrides: Partial<Callee> = {}): Callee {
  return { phoneNumber, recentAttempts: [], ...overrides };
}
const NOBODY = callee('+12125550123');

function decide(b: BatchWindow, c: Callee, at: string): WindowDecision {
  return evaluateCallingWindow(b, c, new Date(at));
}
function expectAllowed(b: BatchWindow, c: Callee, at: string): void {
  const decision = decide(b, c, at);
  expect(decision.allowed ? 'allowed' : decision.reason).toBe('allowed');
}
function expectRefused(
  b: BatchWindow,
  c: Callee,
  at: string,
  reason: string,
  next: string | null,
): void {
  const decision = decide(b, c, at);
  expect(decision).toEqual({
    allowed: false,
    reason,
    nextAllowedAt: next === null ? null : new Date(next),
  });
  // nextAllowedAt from the same instant agrees, and is itself allowed.
  expect(nextAllowedAt(b, c, new Date(at))).toEqual(next === null ? null : new Date(next));
  if (next !== null) expectAllowed(b, c, next);
}

describe('batch window', () => {
  const officeHours = window('09:00', '17:00', 'America/New_York', WEEKDAYS);

  it('allows inside the hours on an allowed day, read in the batch zone', () => {
    expectAllowed(officeHours, NOBODY, '2026-03-09T13:00:00Z'); // Mon 09:00 EDT
    expectAllowed(officeHours, NOBODY, '2026-03-09T20:59:59.999Z'); // Mon 16:59:59 EDT
  });

  it('refuses outside the hours or days and names the first allowed instant', () => {
    expectRefused(
      officeHours,
      NOBODY,
      '2026-03-09T12:59:00Z',
      'batch_hours',
      '2026-03-09T13:00:00Z',
    );
    // Friday 17:00 EST (end is exclusive) → Monday 09:00, now EDT.
    expectRefused(
      officeHours,
      NOBODY,
      '2026-03-06T22:00:00Z',
      'batch_hours',
      '2026-03-09T13:00:00Z',
    );
    expectRefused(
      officeHours,
      NOBODY,
      '2026-03-07T15:00:00Z',
      'batch_hours',
      '2026-03-09T13:00:00Z',
    );
  });

  it('without calling hours allows the whole of each allowed day', () => {
    const sundays = batch({ allowedDays: [0], enforceCalleeLocalHours: false });
    expectAllowed(sundays, NOBODY, '2026-03-08T00:00:00Z');
    expectAllowed(sundays, NOBODY, '2026-03-08T23:59:59Z');
    expectRefused(sundays, NOBODY, '2026-03-07T23:59:00Z', 'batch_hours', '2026-03-08T00:00:00Z');
    expectRefused(sundays, NOBODY, '2026-03-09T00:00:00Z', 'batch_hours', '2026-03-15T00:00:00Z');
  });

  it('never allows a batch with no allowed day, nor one whose zone is unknown', () => {
    expectRefused(batch({ allowedDays: [] }), NOBODY, '2026-03-09T15:00:00Z', 'batch_never', null);
    expectRefused(
      batch({ timezone: 'Mars/Olympus' }),
      NOBODY,
      '2026-03-09T15:00:00Z',
      'batch_never',
      null,
    );
  });

  describe('a window crossing midnight belongs to the day it starts', () => {
    const fridayNights = window('22:00', '02:00', 'UTC', [5]);

    it('runs from Friday 22:00 to Saturday 02:00', () => {
      expectAllowed(fridayNights, NOBODY, '2026-03-06T22:00:00Z');
      expectAllowed(fridayNights, NOBODY, '2026-03-07T01:59:00Z');
      expectRefused(
        fridayNights,
        NOBODY,
        '2026-03-07T02:00:00Z',
        'batch_hours',
        '2026-03-13T22:00:00Z',
      );
    });

    it('does not open on Saturday night nor in the small hours of Friday', () => {
      expectRefused(
        fridayNights,
        NOBODY,
        '2026-03-07T22:30:00Z',
        'batch_hours',
        '2026-03-13T22:00:00Z',
      );
      expectRefused(
        fridayNights,
        NOBODY,
        '2026-03-06T01:00:00Z',
        'batch_hours',
        '2026-03-06T22:00:00Z',
      );
    });

    it('ends early when the clocks spring forward inside it', () => {
      // Saturday 22:00 EST → Sunday 02:30: local 02:00–03:00 does not exist on 2026-03-08.
      const saturdayNights = window('22:00', '02:30', 'America/New_York', [6]);
      expectAllowed(saturdayNights, NOBODY, '2026-03-08T06:59:00Z'); // 01:59 EST
      expectRefused(
        saturdayNights,
        NOBODY,
        '2026-03-08T07:00:00Z', // 03:00 EDT
        'batch_hours',
        '2026-03-15T02:00:00Z', // next Saturday 22:00 EDT
      );
    });

    it('a window whose end equals its start lasts 24 hours from the start', () => {
      const mondayNoonToNoon = window('12:00', '12:00', 'UTC', [1]);
      expectAllowed(mondayNoonToNoon, NOBODY, '2026-03-10T11:59:00Z');
      expectRefused(
        mondayNoonToNoon,
        NOBODY,
        '2026-03-10T12:00:00Z',
        'batch_hours',
        '2026-03-16T12:00:00Z',
      );
    });
  });
});

describe('DST', () => {
  it('America/New_York spring forward (2026-03-08): a 02:30 start opens at 03:00 EDT', () => {
    const small = window('02:30', '04:00', 'America/New_York');
    expectRefused(small, NOBODY, '2026-03-08T06:00:00Z', 'batch_hours', '2026-03-08T07:00:00Z');
    expectAllowed(small, NOBODY, '2026-03-08T07:30:00Z'); // 03:30 EDT
    expectRefused(small, NOBODY, '2026-03-08T08:00:00Z', 'batch_hours', '2026-03-09T06:30:00Z');
  });

  it('America/New_York fall back (2026-11-01): a repeated local hour is inside both times', () => {
    const repeated = window('01:00', '01:30', 'America/New_York');
    expectAllowed(repeated, NOBODY, '2026-11-01T05:15:00Z'); // 01:15 EDT
    expectRefused(repeated, NOBODY, '2026-11-01T05:30:00Z', 'batch_hours', '2026-11-01T06:00:00Z');
    expectAllowed(repeated, NOBODY, '2026-11-01T06:15:00Z'); // 01:15 EST
    expectRefused(repeated, NOBODY, '2026-11-01T06:30:00Z', 'batch_hours', '2026-11-02T06:00:00Z');
  });

  it('callee hours follow the offset change on both US DST days', () => {
    const anyTime = batch();
    const newYork = callee('+12125550123');
    expectRefused(
      anyTime,
      newYork,
      '2026-03-08T05:00:00Z',
      'callee_local_hours',
      '2026-03-08T12:00:00Z',
    );
    expectRefused(
      anyTime,
      newYork,
      '2026-03-07T05:00:00Z',
      'callee_local_hours',
      '2026-03-07T13:00:00Z',
    );
    expectRefused(
      anyTime,
      newYork,
      '2026-11-01T12:30:00Z',
      'callee_local_hours',
      '2026-11-01T13:00:00Z',
    );
    expectAllowed(anyTime, newYork, '2026-11-02T01:59:00Z'); // 20:59 EST
    expectRefused(
      anyTime,
      newYork,
      '2026-11-02T02:00:00Z',
      'callee_local_hours',
      '2026-11-02T13:00:00Z',
    );
  });

  it('Europe/London: office hours move by an hour in UTC; 01:00–02:00 vanishes, then doubles', () => {
    const office = window('09:00', '17:00', 'Europe/London', WEEKDAYS);
    expectRefused(office, NOBODY, '2026-03-27T17:00:00Z', 'batch_hours', '2026-03-30T08:00:00Z');
    const oneToTwo = window('01:00', '02:00', 'Europe/London');
    expectRefused(oneToTwo, NOBODY, '2026-03-29T00:00:00Z', 'batch_hours', '2026-03-30T00:00:00Z');
    expectAllowed(oneToTwo, NOBODY, '2026-10-25T00:30:00Z'); // 01:30 BST
    expectAllowed(oneToTwo, NOBODY, '2026-10-25T01:30:00Z'); // 01:30 GMT
    expectRefused(oneToTwo, NOBODY, '2026-10-25T02:00:00Z', 'batch_hours', '2026-10-26T01:00:00Z');
  });

  it('Australia/Sydney (southern hemisphere): DST starts 2026-10-04 and ends 2026-04-05', () => {
    const twoToThree = window('02:00', '03:00', 'Australia/Sydney');
    // 02:00–03:00 AEST does not exist on 2026-10-04: next is 02:00 AEDT on the 5th.
    expectRefused(
      twoToThree,
      NOBODY,
      '2026-10-03T15:00:00Z',
      'batch_hours',
      '2026-10-04T15:00:00Z',
    );
    // On 2026-04-05 it happens twice, back to back: 15:00Z–17:00Z.
    expectAllowed(twoToThree, NOBODY, '2026-04-04T15:30:00Z');
    expectAllowed(twoToThree, NOBODY, '2026-04-04T16:30:00Z');
    expectRefused(
      twoToThree,
      NOBODY,
      '2026-04-04T17:00:00Z',
      'batch_hours',
      '2026-04-05T16:00:00Z',
    );
    const sydney = callee('+61291234567');
    expectRefused(
      batch(),
      sydney,
      '2026-10-04T20:00:00Z',
      'callee_local_hours',
      '2026-10-04T21:00:00Z',
    );
    expectRefused(
      batch(),
      sydney,
      '2026-10-02T21:00:00Z',
      'callee_local_hours',
      '2026-10-02T22:00:00Z',
    );
  });
});

describe('callee local hours', () => {
  const anyTime = batch();

  it('checks every zone of a split area code: 850 is Central and Eastern (and Florida)', () => {
    const panhandle = callee('+18505550123');
    // 08:30 EDT is 07:30 CDT: wait for 08:00 CDT.
    expectRefused(
      anyTime,
      panhandle,
      '2026-03-09T12:30:00Z',
      'callee_local_hours',
      '2026-03-09T13:00:00Z',
    );
    expectAllowed(anyTime, panhandle, '2026-03-09T23:59:00Z'); // 19:59 EDT
    // 20:00 EDT: federal hours still open, Florida's are not.
    expectRefused(
      anyTime,
      panhandle,
      '2026-03-10T00:00:00Z',
      'state_hours',
      '2026-03-10T13:00:00Z',
    );
  });

  it('208 (Idaho) opens by Pacific time and closes by Mountain time', () => {
    const idaho = callee('+12085550123');
    expectRefused(
      anyTime,
      idaho,
      '2026-03-09T14:30:00Z',
      'callee_local_hours',
      '2026-03-09T15:00:00Z',
    );
    expectAllowed(anyTime, idaho, '2026-03-10T02:59:00Z'); // 20:59 MDT
    expectRefused(
      anyTime,
      idaho,
      '2026-03-10T03:00:00Z',
      'callee_local_hours',
      '2026-03-10T15:00:00Z',
    );
  });

  it('intersects with the batch window', () => {
    // Batch 09:00–17:00 New York, callee in Los Angeles: 12:00–17:00 EDT.
    const office = batch({
      timezone: 'America/New_York',
      callingHourStart: '09:00',
      callingHourEnd: '17:00',
    });
    expectRefused(
      office,
      callee('+13105550123'),
      '2026-03-09T13:00:00Z',
      'callee_local_hours',
      '2026-03-09T15:00:00Z',
    );
  });

  it("a contact's valid timezone narrows the number's zones only to one the number may be in", () => {
    // 212 is New York: a contact row saying Tokyo (a CRM default, an error) cannot open 21:30.
    const lying = callee('+12125550123', { timezone: 'Asia/Tokyo' });
    expectRefused(
      anyTime,
      lying,
      '2026-03-10T01:30:00Z',
      'callee_local_hours',
      '2026-03-10T12:00:00Z',
    );
    const decision = decide(anyTime, lying, '2026-03-10T12:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      source: 'area_code',
      ignoredContactTimezone: 'Asia/Tokyo',
      zones: [{ zone: 'America/New_York' }],
    });
    // 850 is Central and Eastern: a contact in Chicago is believed, and 08:00 there is 09:00 in New York.
    const split = callee('+18505550123', { timezone: 'America/Chicago' });
    const believed = decide(anyTime, split, '2026-03-09T13:30:00Z');
    expect(believed.allowed && believed.permit.callee).toMatchObject({
      source: 'contact',
      zones: [{ zone: 'America/Chicago' }],
    });
  });

  it("a batch that trusts its contacts' timezones takes any valid one", () => {
    const moved = callee('+12125550123', { timezone: 'America/Los_Angeles' });
    const trusting = batch({ trustContactTimezone: true });
    expectRefused(
      trusting,
      moved,
      '2026-03-09T14:00:00Z',
      'callee_local_hours',
      '2026-03-09T15:00:00Z',
    );
    const decision = decide(trusting, moved, '2026-03-09T15:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      source: 'contact',
      zones: [{ zone: 'America/Los_Angeles', localTime: '2026-03-09T08:00:00-07:00' }],
    });
    // Untrusted, the same contact is called in New York's hours: 13:00Z is 09:00 there.
    expect(decide(anyTime, moved, '2026-03-09T13:00:00Z').allowed).toBe(true);
  });

  it('an invalid contact timezone is ignored, and the permit says so', () => {
    const odd = callee('+12125550123', { timezone: 'Mars/Olympus' });
    expectRefused(
      anyTime,
      odd,
      '2026-03-09T11:00:00Z',
      'callee_local_hours',
      '2026-03-09T12:00:00Z',
    );
    const decision = decide(anyTime, odd, '2026-03-09T12:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      source: 'area_code',
      ignoredContactTimezone: 'Mars/Olympus',
      zones: [{ zone: 'America/New_York' }],
    });
  });

  it('a number without a known area code falls back to its country (all its zones) and, its state unknown, to every state', () => {
    const tollFree = callee('+18005550123');
    const decision = decide(anyTime, tollFree, '2026-03-09T20:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      source: 'country',
      country: 'US',
    });
    expect(decision.allowed && decision.permit.jurisdictionRules).toHaveLength(15);
    // 07:00 in Honolulu (UTC−10): federal hours closed there; they open at 08:00 (18:00Z), but
    // the strictest state (Kentucky) opens at 10:00 there.
    expectRefused(
      anyTime,
      tollFree,
      '2026-03-09T17:00:00Z',
      'callee_local_hours',
      '2026-03-09T20:00:00.000Z',
    );
    // Rhode Island's weekdays close at 18:00 Eastern (22:00Z), and nothing is open on Sunday.
    expectRefused(
      anyTime,
      tollFree,
      '2026-03-13T22:00:00Z',
      'state_hours',
      '2026-03-14T20:00:00.000Z',
    );
  });

  it('a number with no known zone is held to the batch window only, and the permit says so', () => {
    const decision = decide(anyTime, callee('+19995550123'), '2026-03-09T03:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      source: 'unknown',
      zones: [],
      note: expect.stringContaining('only the batch window'),
    });
  });

  it('does not apply when the batch opted out', () => {
    const optedOut = batch({ enforceCalleeLocalHours: false });
    const decision = decide(optedOut, callee('+13055550123'), '2026-03-09T04:00:00Z');
    expect(decision.allowed && decision.permit).toMatchObject({
      callee: { enforced: false },
      jurisdictionRules: [],
    });
  });
});

describe('state rules', () => {
  const anyTime = batch();
  const at = '2026-03-09T18:00:00Z'; // 14:00 EDT, 13:00 CDT, 11:00 PDT
  const hoursBefore = (hours: number): Date => new Date(Date.parse(at) - hours * 3600_000);

  it('Florida, Oklahoma and Washington end at 20:00; other states at 21:00', () => {
    expectRefused(
      anyTime,
      callee('+13055550123'),
      '2026-03-10T00:30:00Z',
      'state_hours',
      '2026-03-10T12:00:00Z',
    );
    expectRefused(
      anyTime,
      callee('+19185550123'),
      '2026-03-10T01:30:00Z',
      'state_hours',
      '2026-03-10T13:00:00Z',
    );
    expectRefused(
      anyTime,
      callee('+12065550123'),
      '2026-03-10T03:30:00Z',
      'state_hours',
      '2026-03-10T15:00:00Z',
    );
    expectAllowed(anyTime, callee('+12125550123'), '2026-03-10T00:30:00Z');
  });

  it('Florida allows at most 3 calls in 24 hours; the 4th waits for the oldest to age out', () => {
    const threeCalls = [hoursBefore(23), hoursBefore(10), hoursBefore(1)];
    expectRefused(
      anyTime,
      callee('+13055550123', { recentAttempts: threeCalls }),
      at,
      'state_cap',
      '2026-03-09T19:00:00Z',
    );
    expectAllowed(anyTime, callee('+13055550123', { recentAttempts: threeCalls.slice(1) }), at);
    expectAllowed(
      anyTime,
      callee('+13055550123', { recentAttempts: [hoursBefore(24), ...threeCalls.slice(1)] }),
      at,
    );
  });

  it('a capped call that ages out at night waits for the morning too', () => {
    // The 3rd-latest call ages out at 22:00 EDT: next is 08:00 EDT.
    const calls = [hoursBefore(16), hoursBefore(2), hoursBefore(1)];
    expectRefused(
      anyTime,
      callee('+13055550123', { recentAttempts: calls }),
      at,
      'state_cap',
      '2026-03-10T12:00:00Z',
    );
  });

  it('Oklahoma has the cap; Washington and New York do not', () => {
    const threeCalls = [hoursBefore(3), hoursBefore(2), hoursBefore(1)];
    expect(
      decide(anyTime, callee('+14055550123', { recentAttempts: threeCalls }), at),
    ).toMatchObject({
      allowed: false,
      reason: 'state_cap',
    });
    expectAllowed(anyTime, callee('+12065550123', { recentAttempts: threeCalls }), at);
    expectAllowed(anyTime, callee('+12125550123', { recentAttempts: threeCalls }), at);
  });

  it('the permit records the zones, their local times and hours, the batch window and the rules that applied', () => {
    const office = batch({
      timezone: 'America/New_York',
      callingHourStart: '09:00',
      callingHourEnd: '17:00',
      allowedDays: WEEKDAYS,
    });
    const decision = decide(
      office,
      callee('+18505550123', { recentAttempts: [hoursBefore(2)] }),
      at,
    );
    expect(decision).toEqual({
      allowed: true,
      permit: {
        rules: 'calling-window/2',
        at: '2026-03-09T18:00:00.000Z',
        batch: {
          timezone: 'America/New_York',
          window: '09:00-17:00',
          allowedDays: WEEKDAYS,
          localTime: '2026-03-09T14:00:00-04:00',
        },
        callee: {
          enforced: true,
          source: 'area_code',
          areaCode: '850',
          country: 'US',
          regions: ['FL'],
          zones: [
            {
              zone: 'America/Chicago',
              localTime: '2026-03-09T13:00:00-05:00',
              window: '08:00-20:00',
            },
            {
              zone: 'America/New_York',
              localTime: '2026-03-09T14:00:00-04:00',
              window: '08:00-20:00',
            },
          ],
        },
        jurisdictionRules: [
          {
            jurisdiction: 'US',
            hours: 'every day 08:00-21:00',
            closedOn: null,
            maxAttemptsPer24h: null,
            source: '47 CFR 64.1200(c)(1); 16 CFR 310.4(c)',
          },
          {
            jurisdiction: 'FL',
            hours: 'every day 08:00-20:00',
            closedOn: null,
            maxAttemptsPer24h: 3,
            attemptsLast24h: 1,
            source: 'Fla. Stat. § 501.616(6)',
          },
        ],
      },
    });
  });
});

describe('Canada (CRTC Telemarketing Rules) and provinces', () => {
  const anyTime = batch();
  const toronto = callee('+14165550123');

  it('weekdays 09:00–21:30: a Toronto 416 number at 21:45 on a Tuesday is held to 09:00 Wednesday', () => {
    expectAllowed(anyTime, toronto, '2026-03-11T01:15:00Z'); // Tue 21:15 EDT
    expectRefused(
      anyTime,
      toronto,
      '2026-03-11T01:45:00Z', // Tue 21:45 EDT
      'callee_local_hours',
      '2026-03-11T13:00:00Z', // Wed 09:00 EDT
    );
    expectRefused(
      anyTime,
      toronto,
      '2026-03-11T12:30:00Z',
      'callee_local_hours',
      '2026-03-11T13:00:00Z',
    );
  });

  it('weekends 10:00–18:00: at 18:30 on Saturday the call is held to 10:00 Sunday', () => {
    expectRefused(
      anyTime,
      toronto,
      '2026-03-14T22:30:00Z', // Sat 18:30 EDT
      'callee_local_hours',
      '2026-03-15T14:00:00Z', // Sun 10:00 EDT
    );
    expectAllowed(anyTime, toronto, '2026-03-15T21:59:00Z'); // Sun 17:59 EDT
    const decision = decide(anyTime, toronto, '2026-03-15T15:00:00Z');
    expect(decision.allowed && decision.permit).toMatchObject({
      callee: { country: 'CA', regions: ['ON'], zones: [{ window: '10:00-18:00' }] },
      jurisdictionRules: [
        { jurisdiction: 'CA', hours: 'Mon-Fri 09:00-21:30, Sat-Sun 10:00-18:00' },
      ],
    });
  });

  it('British Columbia closes its statutory holidays: Canada Day is held to the next morning', () => {
    const vancouver = callee('+16045550123');
    expectRefused(
      anyTime,
      vancouver,
      '2026-07-01T18:00:00Z', // Wed 1 July, 11:00 PDT
      'state_holiday',
      '2026-07-02T16:00:00Z', // Thu 09:00 PDT
    );
    expectAllowed(anyTime, callee('+14165550123'), '2026-07-01T18:00:00Z'); // Ontario does not
  });
});

describe('days and holidays of state rules', () => {
  const anyTime = batch();

  it('a Sunday ban holds the call over the Sunday (Utah, Alabama, Mississippi, Rhode Island)', () => {
    for (const number of ['+18015550123', '+12055550123', '+16015550123', '+14015550123']) {
      const decision = decide(anyTime, callee(number), '2026-03-15T18:00:00Z'); // Sunday
      expect([number, decision.allowed ? 'allowed' : decision.reason]).toEqual([
        number,
        'state_hours',
      ]);
    }
    // Utah: Sunday noon → Monday 08:00 MDT.
    expectRefused(
      anyTime,
      callee('+18015550123'),
      '2026-03-15T18:00:00Z',
      'state_hours',
      '2026-03-16T14:00:00Z',
    );
  });

  it('Texas opens at noon on Sunday, at 09:00 on other days', () => {
    const houston = callee('+17135550123');
    expectRefused(anyTime, houston, '2026-03-15T15:00:00Z', 'state_hours', '2026-03-15T17:00:00Z');
    expectRefused(anyTime, houston, '2026-03-16T13:30:00Z', 'state_hours', '2026-03-16T14:00:00Z');
  });

  it('Rhode Island: 09:00–18:00 on weekdays, 10:00–17:00 on Saturday', () => {
    const providence = callee('+14015550123');
    expectRefused(
      anyTime,
      providence,
      '2026-03-13T22:00:00Z',
      'state_hours',
      '2026-03-14T14:00:00Z',
    );
    expectRefused(
      anyTime,
      providence,
      '2026-03-14T21:00:00Z',
      'state_hours',
      '2026-03-16T13:00:00Z',
    );
  });

  it('a holiday-banning state holds the call over the holiday, an observed date included', () => {
    const saltLake = callee('+18015550123');
    // Independence Day 2026 is a Saturday, observed Friday 3 July; Sunday is closed too:
    // Friday noon → Monday 6 July, 08:00 MDT.
    expectRefused(
      anyTime,
      saltLake,
      '2026-07-03T18:00:00Z',
      'state_holiday',
      '2026-07-06T14:00:00Z',
    );
    // Rhode Island also moves it to the Monday after: Friday → Tuesday 7 July, 09:00 EDT.
    expectRefused(
      anyTime,
      callee('+14015550123'),
      '2026-07-03T15:00:00Z',
      'state_holiday',
      '2026-07-07T13:00:00Z',
    );
    // Alabama's Mardi Gras (Tuesday 17 February 2026) → Wednesday 08:00 CST.
    expectRefused(
      anyTime,
      callee('+12055550123'),
      '2026-02-17T18:00:00Z',
      'state_holiday',
      '2026-02-18T14:00:00Z',
    );
    // A state without a holiday rule calls on the holiday.
    expectAllowed(anyTime, callee('+12125550123'), '2026-07-03T18:00:00Z');
  });

  it("Mississippi's hours are read on Central Standard Time too: 09:00–20:00 CDT in summer", () => {
    const jackson = callee('+16015550123');
    expectRefused(anyTime, jackson, '2026-07-07T13:30:00Z', 'state_hours', '2026-07-07T14:00:00Z');
    expectAllowed(anyTime, jackson, '2026-01-06T14:30:00Z'); // 08:30 CST in winter
    const decision = decide(anyTime, jackson, '2026-07-07T15:00:00Z');
    expect(decision.allowed && decision.permit.callee).toMatchObject({
      zones: [
        { zone: 'America/Chicago', window: '08:00-20:00' },
        { zone: 'Etc/GMT+6', window: '08:00-20:00', fixedClock: true },
      ],
    });
  });

  it('the last-call margin holds a call closing on Saturday night until Monday (claim-plan composes these)', () => {
    const saltLake = callee('+18015550123');
    const now = new Date('2026-03-15T02:58:30Z'); // Sat 20:58:30 MDT: Utah closes at 21:00
    const closes = allowedUntil(anyTime, saltLake, now, 3_600_000);
    expect(closes).toEqual(new Date('2026-03-15T03:00:00Z'));
    expect(nextAllowedAt(anyTime, saltLake, closes as Date)).toEqual(
      new Date('2026-03-16T14:00:00Z'), // Monday 08:00 MDT: Sunday is skipped
    );
  });
});

describe('allowedUntil (the dialer checks it again just before dialing)', () => {
  const until = (b: BatchWindow, c: Callee, at: string) =>
    allowedUntil(b, c, new Date(at))?.toISOString() ?? null;

  it('ends with the batch window, read in its zone', () => {
    const office = window('09:00', '17:00', 'America/New_York', WEEKDAYS);
    expect(until(office, NOBODY, '2026-03-09T20:59:59Z')).toBe('2026-03-09T21:00:00.000Z');
    expect(until(office, NOBODY, '2026-03-09T21:00:00Z')).toBeNull();
  });

  it('ends with the earliest close of the callee zones and the state rule', () => {
    // 850 is Central and Eastern, in Florida (20:00): Eastern closes first, at 20:00 EDT.
    expect(until(batch(), callee('+18505550123'), '2026-03-09T18:00:00Z')).toBe(
      '2026-03-10T00:00:00.000Z',
    );
  });

  it('runs a window crossing midnight on, and answers the horizon for one always open', () => {
    const night = window('22:00', '02:00', 'UTC', [5]);
    expect(until(night, NOBODY, '2026-03-13T23:00:00Z')).toBe('2026-03-14T02:00:00.000Z');
    const always = batch({ enforceCalleeLocalHours: false });
    expect(until(always, NOBODY, '2026-03-09T18:00:00Z')).toBe('2026-03-10T18:00:00.000Z');
  });
});
