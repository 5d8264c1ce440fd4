/**
 * Calling-hour rules stricter than the federal 08:00–21:00, by US state. The state is presumed
 * from the number's area code (FL and OK law presume residence that way); which area codes
 * belong to which state comes from data/number-zones.json (Google libphonenumber geocoding).
 *
 * Sources (summaries: shared/research/voice-platforms.md §2; verify with counsel before relying
 * on them for a new state):
 * - Federal: 47 CFR 64.1200(c)(1) and the FTC Telemarketing Sales Rule, 16 CFR 310.4(c):
 *   no calls before 8 a.m. or after 9 p.m. at the called party's location.
 * - FL: Florida Telephone Solicitation Act, Fla. Stat. § 501.059(8)(a) (2021 amendment):
 *   8 a.m.–8 p.m. local time, at most 3 calls in 24 hours on the same subject; § 501.059(8)(b)
 *   presumes a Florida area code is a Florida resident.
 * - OK: Oklahoma Telephone Solicitation Act of 2022, 15 O.S. § 775C.4: same hours and cap.
 * - MD: Maryland Stop the Spam Calls Act of 2023, Md. Code, Com. Law § 14-4503: same hours and
 *   cap (effective 2024-01-01).
 * - WA: RCW 80.36.390(2): no telephone solicitation before 8 a.m. or after 8 p.m.
 * Not encoded (not sourced reliably enough here): WY/TX/KY/ME variations named by a third-party
 * rules tool in the research.
 */
export interface StateRule {
  state: string;
  /** Local window, minutes after midnight: [start, end). */
  start: number;
  end: number;
  /** Calls allowed in any 24 hours to one number; null: no cap. */
  maxAttemptsPer24h: number | null;
  source: string;
}

export const FEDERAL_START = 8 * 60;
export const FEDERAL_END = 21 * 60;

export const STATE_RULES: Readonly<Record<string, StateRule>> = {
  FL: {
    state: 'FL',
    start: 8 * 60,
    end: 20 * 60,
    maxAttemptsPer24h: 3,
    source: 'Fla. Stat. § 501.059(8)',
  },
  OK: {
    state: 'OK',
    start: 8 * 60,
    end: 20 * 60,
    maxAttemptsPer24h: 3,
    source: '15 O.S. § 775C.4',
  },
  MD: {
    state: 'MD',
    start: 8 * 60,
    end: 20 * 60,
    maxAttemptsPer24h: 3,
    source: 'Md. Code, Com. Law § 14-4503',
  },
  WA: {
    state: 'WA',
    start: 8 * 60,
    end: 20 * 60,
    maxAttemptsPer24h: null,
    source: 'RCW 80.36.390(2)',
  },
};
