import { HOLIDAY_CALENDARS, type HolidayCalendar } from './holidays';

/**
 * Calling-hour rules by jurisdiction, read at the callee's location. The jurisdiction is presumed
 * from the NANP area code (FL, OK and CT law presume residence that way); which area codes belong
 * to which state or province comes from data/number-zones.json (Google libphonenumber geocoding).
 * Every callee gets its country's rule (the US federal hours, used for every number outside
 * Canada as before; the CRTC's for Canada), narrowed by the rule of every state or province the
 * number may be in: the strictest candidate wins. The table with its sources is in
 * docs/dialer.md; verify with counsel before relying on a rule.
 *
 * Named but not encoded (the text could not be read here, or it binds only some kinds of call):
 * - LA: the PSC's Do Not Call General Order (R-29617) is reported to allow 08:00–20:00, no
 *   Sundays or legal holidays; Louisiana's holidays include governor-proclaimed days, and a
 *   declared state of emergency bans telephonic solicitation (La. R.S. 45:844.31).
 * - PA: 73 P.S. § 2245 (legal holidays since Act 73 of 2019; Act 47 of 2026, reported as 09:00–
 *   19:00 and no Sundays from mid-October 2026).
 * - OR (ORS 646.563, reported 08:00–20:00 and 3 calls a day), MN (Minn. Stat. § 325E.30, reported
 *   09:00–21:00), MI (MCL 750.540e(1)(f), 09:00–21:00, a harassment statute).
 * - Rules for automated dialing devices only: ME (10 M.R.S. § 1498(3), weekdays 09:00–17:00),
 *   CA (Pub. Util. Code § 2872); whether an AI voice agent is such a device is for counsel.
 * - BC's once-in-30-days limit for the same transaction (B.C. Reg. 83/2005, s. 8(3)).
 */

/** Local hours [start, end), minutes after midnight. */
export interface Hours {
  start: number;
  end: number;
}

/** Hours by weekday, 0 = Sunday … 6 = Saturday; null: no call that day. */
export type WeekHours = readonly (Hours | null)[];

export interface JurisdictionRule {
  /** 'US' and 'CA' for the countries; a USPS or Canada Post code for a state or province. */
  code: string;
  name: string;
  week: WeekHours;
  /** No call on these public holidays. */
  holidays: HolidayCalendar | null;
  /** The hours are also read on this fixed clock (Mississippi's "Central Standard Time"). */
  clockZone?: string;
  /** Calls allowed in any 24 hours to one number; null: no cap. */
  maxAttemptsPer24h: number | null;
  source: string;
}

const at = (hour: number, minute = 0): number => hour * 60 + minute;
const hours = (start: number, end: number): Hours => ({ start, end });

function everyDay(start: number, end: number): WeekHours {
  return Array.from({ length: 7 }, () => hours(start, end));
}

/** Monday–Friday, then Saturday and Sunday. */
function week(weekday: Hours, saturday: Hours | null, sunday: Hours | null): WeekHours {
  return [sunday, weekday, weekday, weekday, weekday, weekday, saturday];
}

function rule(
  code: string,
  name: string,
  weekHours: WeekHours,
  source: string,
  extra: Partial<Pick<JurisdictionRule, 'holidays' | 'clockZone' | 'maxAttemptsPer24h'>> = {},
): JurisdictionRule {
  return {
    code,
    name,
    week: weekHours,
    holidays: null,
    maxAttemptsPer24h: null,
    source,
    ...extra,
  };
}

export const US_FEDERAL = rule(
  'US',
  'United States (federal)',
  everyDay(at(8), at(21)),
  '47 CFR 64.1200(c)(1); 16 CFR 310.4(c)',
);

const CRTC_WEEK = week(hours(at(9), at(21, 30)), hours(at(10), at(18)), hours(at(10), at(18)));

export const CANADA = rule(
  'CA',
  'Canada (CRTC)',
  CRTC_WEEK,
  'CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules): 09:00–21:30 ' +
    'weekdays, 10:00–18:00 weekends, the consumer’s time',
);

const eightToEight = everyDay(at(8), at(20));

/** States and provinces whose rules are stricter than their country's. */
export const JURISDICTION_RULES: Readonly<Record<string, JurisdictionRule>> = Object.fromEntries(
  [
    rule(
      'AL',
      'Alabama',
      week(hours(at(8), at(20)), hours(at(8), at(20)), null),
      'Ala. Admin. Code r. 770-X-5-.17',
      {
        holidays: HOLIDAY_CALENDARS.AL,
      },
    ),
    rule('CT', 'Connecticut', everyDay(at(9), at(20)), 'Conn. Gen. Stat. § 42-288a(c)'),
    rule('FL', 'Florida', eightToEight, 'Fla. Stat. § 501.616(6)', { maxAttemptsPer24h: 3 }),
    rule('KY', 'Kentucky', everyDay(at(10), at(21)), 'KRS 367.46955 (calls to a residence)'),
    rule('MA', 'Massachusetts', eightToEight, 'M.G.L. c. 159C, § 3; 201 CMR 12.02(2)'),
    rule(
      'MD',
      'Maryland',
      eightToEight,
      'Md. Code, Com. Law § 14-4502 (Stop the Spam Calls Act of 2023)',
      {
        maxAttemptsPer24h: 3,
      },
    ),
    rule(
      'MS',
      'Mississippi',
      week(hours(at(8), at(20)), hours(at(8), at(20)), null),
      'Miss. Code Ann. § 77-3-723(1)',
      // "between the hours of 8:00 a.m. and 8:00 p.m. Central Standard Time": CST is UTC−6 all
      // year, so in summer the window is 09:00–20:00 CDT.
      { clockZone: 'Etc/GMT+6' },
    ),
    rule('NM', 'New Mexico', everyDay(at(9), at(21)), 'N.M. Stat. § 57-12-22(B)(5)'),
    rule('OK', 'Oklahoma', eightToEight, '15 O.S. § 775C.4', { maxAttemptsPer24h: 3 }),
    rule(
      'RI',
      'Rhode Island',
      week(hours(at(9), at(18)), hours(at(10), at(17)), null),
      'R.I. Gen. Laws § 5-61-2(2) ("hours of operation"), § 5-61-3.6',
      { holidays: HOLIDAY_CALENDARS.RI },
    ),
    rule(
      'TX',
      'Texas',
      week(hours(at(9), at(21)), hours(at(9), at(21)), hours(at(12), at(21))),
      'Tex. Bus. & Com. Code § 301.051',
    ),
    rule(
      'UT',
      'Utah',
      week(hours(at(8), at(21)), hours(at(8), at(21)), null),
      'Utah Code § 13-25a-103(3)',
      { holidays: HOLIDAY_CALENDARS.UT },
    ),
    rule('WA', 'Washington', eightToEight, 'RCW 80.36.390(2)'),
    rule('WY', 'Wyoming', eightToEight, 'Wyo. Stat. § 40-12-302(d)'),
    rule(
      'BC',
      'British Columbia',
      CRTC_WEEK,
      'Telemarketer Licensing Regulation, B.C. Reg. 83/2005, s. 8(2)',
      { holidays: HOLIDAY_CALENDARS.BC },
    ),
  ].map((entry) => [entry.code, entry]),
);

/** Canada Post codes: a callee in one of these gets the CRTC's hours instead of the US ones. */
export const CANADIAN_PROVINCES: ReadonlySet<string> = new Set(
  'AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '),
);
