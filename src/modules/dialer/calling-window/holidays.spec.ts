import { oracleHoliday } from '../../../../test/support/compliance-oracle';
import {
  dayOfDate,
  easterSunday,
  HOLIDAY_CALENDARS,
  holidayDaysOf,
  holidayNamesOn,
  isHoliday,
  yearOfDay,
  type HolidayCalendarId,
} from './holidays';

const DAY_MS = 86_400_000;
const iso = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOf = (text: string): number => Date.parse(`${text}T00:00:00Z`) / DAY_MS;
const holidays = (id: HolidayCalendarId, year: number): string[] =>
  [...holidayDaysOf(HOLIDAY_CALENDARS[id], year)].sort((a, b) => a - b).map(iso);
const on = (id: HolidayCalendarId, date: string): boolean =>
  isHoliday(HOLIDAY_CALENDARS[id], dayOf(date));

describe('holiday calendars', () => {
  it('day numbers and years agree with Date', () => {
    for (let day = -200_000; day < 200_000; day += 613) {
      const date = new Date(day * DAY_MS);
      expect(yearOfDay(day)).toBe(date.getUTCFullYear());
      expect(dayOfDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(day);
    }
  });

  it('Easter Sunday, 2020–2035', () => {
    const easters = Array.from({ length: 16 }, (_, i) => iso(easterSunday(2020 + i)));
    expect(easters).toEqual([
      '2020-04-12',
      '2021-04-04',
      '2022-04-17',
      '2023-04-09',
      '2024-03-31',
      '2025-04-20',
      '2026-04-05',
      '2027-03-28',
      '2028-04-16',
      '2029-04-01',
      '2030-04-21',
      '2031-04-13',
      '2032-03-28',
      '2033-04-17',
      '2034-04-09',
      '2035-03-25',
    ]);
  });

  it('US federal: nth-weekday rules, and a weekend date also closes the Friday before or the Monday after', () => {
    expect(holidays('US', 2026)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03', // Independence Day falls on a Saturday
      '2026-07-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]);
    // 2027: Juneteenth on a Saturday, Independence Day on a Sunday, Christmas on a Saturday, and
    // 1 January 2028 (a Saturday) observed on Friday 31 December 2027.
    expect(holidays('US', 2027)).toEqual(
      expect.arrayContaining([
        '2027-06-18',
        '2027-06-19',
        '2027-07-04',
        '2027-07-05',
        '2027-12-24',
        '2027-12-25',
        '2027-12-31',
      ]),
    );
    expect(holidays('US', 2024)).toEqual(
      expect.arrayContaining(['2024-01-15', '2024-05-27', '2024-09-02', '2024-11-28']),
    );
    // Juneteenth exists from 2021.
    expect(on('US', '2020-06-19')).toBe(false);
    expect(on('US', '2021-06-18')).toBe(true);
    expect(holidayNamesOn(HOLIDAY_CALENDARS.US, dayOf('2026-07-03'))).toEqual([
      'Independence Day (observed)',
    ]);
    expect(on('US', '2026-03-10')).toBe(false);
  });

  it('Utah: Pioneer Day, Good Friday, and Juneteenth on the Monday before (Tue–Fri) or after (weekend)', () => {
    expect(on('UT', '2026-07-24')).toBe(true);
    expect(on('UT', '2027-07-23')).toBe(true); // Pioneer Day 2027 is a Saturday
    expect(on('UT', '2026-04-03')).toBe(true);
    expect(on('UT', '2025-06-16')).toBe(true); // 19 June 2025 is a Thursday
    expect(on('UT', '2025-06-19')).toBe(true);
    expect(on('UT', '2027-06-21')).toBe(true); // 19 June 2027 is a Saturday
    expect(on('UT', '2027-06-18')).toBe(false); // not the Friday before, unlike the federal rule
    expect(on('UT', '2026-07-06')).toBe(false);
  });

  it('Rhode Island: state and federal holidays, weekend dates moved to Monday, election days', () => {
    expect(on('RI', '2025-08-11')).toBe(true); // Victory Day
    expect(on('RI', '2026-05-04')).toBe(true); // Rhode Island Independence Day
    expect(on('RI', '2026-07-03')).toBe(true); // federal: the Friday before
    expect(on('RI', '2026-07-06')).toBe(true); // state: the Monday after
    expect(on('RI', '2026-11-03')).toBe(true); // general election
    expect(on('RI', '2024-11-05')).toBe(true);
    expect(on('RI', '2025-11-04')).toBe(false); // no general election in odd years
  });

  it('Alabama: federal holidays and the state ones (Mardi Gras, Confederate Memorial Day, Jefferson Davis)', () => {
    expect(on('AL', '2025-03-04')).toBe(true);
    expect(on('AL', '2026-02-17')).toBe(true);
    expect(on('AL', '2025-04-28')).toBe(true);
    expect(on('AL', '2025-06-02')).toBe(true);
    expect(on('AL', '2025-11-27')).toBe(true);
    expect(on('AL', '2025-04-29')).toBe(false);
  });

  it('British Columbia: statutory holidays, Victoria Day, Family Day and Truth and Reconciliation by year', () => {
    expect(holidays('BC', 2026)).toEqual([
      '2026-01-01',
      '2026-02-16',
      '2026-04-03',
      '2026-05-18',
      '2026-07-01',
      '2026-08-03',
      '2026-09-07',
      '2026-09-30',
      '2026-10-12',
      '2026-11-11',
      '2026-12-25',
    ]);
    expect(on('BC', '2025-05-19')).toBe(true);
    expect(on('BC', '2027-05-24')).toBe(true);
    expect(on('BC', '2018-02-12')).toBe(true); // second Monday until 2018
    expect(on('BC', '2019-02-18')).toBe(true); // third Monday from 2019
    expect(on('BC', '2022-09-30')).toBe(false); // a statutory holiday from 2023
    expect(on('BC', '2023-10-02')).toBe(true); // 30 September 2023 is a Saturday
    expect(on('BC', '2029-07-02')).toBe(true); // Canada Day 2029 is a Sunday
    expect(on('BC', '2026-12-26')).toBe(false); // Boxing Day is not one in BC
  });

  it('every day of 2020–2035 agrees with the compliance oracle', () => {
    const differ: string[] = [];
    for (const id of ['AL', 'UT', 'RI', 'BC'] as const) {
      for (let day = dayOf('2020-01-01'); day < dayOf('2036-01-01'); day += 1) {
        const date = new Date(day * DAY_MS);
        const oracle = oracleHoliday(id, {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          weekday: date.getUTCDay(),
        });
        if (oracle !== isHoliday(HOLIDAY_CALENDARS[id], day)) differ.push(`${id} ${iso(day)}`);
      }
    }
    expect(differ).toEqual([]);
  });
});
