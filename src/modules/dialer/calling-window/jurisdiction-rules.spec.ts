import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWeek } from './callee-schedule';
import { CANADA, JURISDICTION_RULES, US_FEDERAL } from './jurisdiction-rules';

const DOCS = readFileSync(join(__dirname, '../../../../docs/dialer.md'), 'utf8');

describe('jurisdiction rules', () => {
  it('docs/dialer.md has a row for every rule, with its source', () => {
    const rows = DOCS.split('\n').filter((line) => line.startsWith('| '));
    for (const rule of [US_FEDERAL, CANADA, ...Object.values(JURISDICTION_RULES)]) {
      const label = rule === US_FEDERAL ? 'US (federal' : rule === CANADA ? 'Canada' : rule.code;
      const row = rows.find((line) => line.startsWith(`| ${label}`));
      expect([rule.code, row?.includes(rule.source.split(':')[0])]).toEqual([rule.code, true]);
      if (rule.holidays) expect(DOCS).toContain(rule.holidays.source.split(';')[0].split(',')[0]);
    }
  });

  it('reads as the table says', () => {
    expect(describeWeek(CANADA.week)).toBe('Mon-Fri 09:00-21:30, Sat-Sun 10:00-18:00');
    expect(describeWeek(JURISDICTION_RULES.TX.week)).toBe('Mon-Sat 09:00-21:00, Sun 12:00-21:00');
    expect(describeWeek(JURISDICTION_RULES.RI.week)).toBe(
      'Mon-Fri 09:00-18:00, Sat 10:00-17:00, Sun closed',
    );
    expect(describeWeek(JURISDICTION_RULES.UT.week)).toBe('Mon-Sat 08:00-21:00, Sun closed');
    expect(describeWeek(US_FEDERAL.week)).toBe('every day 08:00-21:00');
  });
});
