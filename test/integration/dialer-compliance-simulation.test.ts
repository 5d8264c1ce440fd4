import { oracleRegions } from '../support/compliance-oracle';
import {
  makePopulation,
  simulateCompliance,
  US_ZONES,
  windowsPlacer,
  type Placer,
} from '../support/compliance-simulation';

// The calling-window rules drive a simulated clock across DST changes and holidays for 10,000
// contacts (every US area code, Canadian ones, some abroad); the independent oracle judges every
// placed call. Full scale (100,000): `npm run bench:dialer`.

const HOUR = 3_600_000;
const CONTACTS = 10_000;

describe('calling-window compliance simulation', () => {
  it.each([
    [
      'fall back (Europe 2026-10-25, US 2026-11-01)',
      '2026-10-23T00:00:00Z',
      '2026-11-01T06:00:00Z',
    ],
    ['spring forward (US 2026-03-08)', '2026-03-06T00:00:00Z', '2026-03-08T07:00:00Z'],
  ])('%s: 0 calls outside any window, state caps never exceeded', async (_name, start, dst) => {
    const from = Date.parse(start);
    const dstChangeAt = Date.parse(dst);
    const until = dstChangeAt + 3 * 24 * HOUR;
    const contacts = makePopulation({
      count: CONTACTS,
      from,
      spreadMs: until - from - 2 * 24 * HOUR,
    });
    const report = await simulateCompliance({
      contacts,
      until,
      placer: windowsPlacer,
      dstChangeAt,
    });

    expect(report.illegalExamples).toEqual([]);
    expect(report.illegalCalls).toBe(0);
    expect(report.capExceeded).toBe(0);
    expect(report.stuck).toBe(0);
    // The run did real work across the change, in every US zone.
    expect(report.callsPlaced).toBeGreaterThan(CONTACTS);
    expect(report.callsNearDstChange).toBeGreaterThan(100);
    expect(US_ZONES.filter((zone) => !report.callsByZone.has(zone))).toEqual([]);
  });

  it('holidays and Sundays (Canada Day, Independence Day observed on Friday 3 July and on Monday 6 July in Rhode Island): 0 calls outside any window', async () => {
    const from = Date.parse('2026-06-29T00:00:00Z');
    const until = Date.parse('2026-07-08T00:00:00Z');
    const contacts = makePopulation({ count: CONTACTS, from, spreadMs: 5 * 24 * HOUR });
    // Which states and provinces were called at all: the holiday rules were in play.
    const called = new Set<string>();
    const placer: Placer = async (request) => {
      const decision = await windowsPlacer(request);
      if (decision.place)
        for (const region of oracleRegions(request.contact.phoneNumber)) called.add(region);
      return decision;
    };
    const report = await simulateCompliance({ contacts, until, placer });

    expect(report.illegalExamples).toEqual([]);
    expect(report.illegalCalls).toBe(0);
    expect(report.capExceeded).toBe(0);
    expect(report.stuck).toBe(0);
    expect(report.callsPlaced).toBeGreaterThan(CONTACTS);
    expect(
      ['AL', 'BC', 'MS', 'RI', 'TX', 'UT', 'ON', 'NT'].filter((region) => !called.has(region)),
    ).toEqual([]);
  });

  it('the harness catches a placer that ignores the windows (the oracle can fail)', async () => {
    const from = Date.parse('2026-10-31T00:00:00Z');
    const contacts = makePopulation({ count: 500, from, spreadMs: 24 * HOUR });
    const reckless: Placer = () => ({ place: true });
    const report = await simulateCompliance({
      contacts,
      until: from + 2 * 24 * HOUR,
      placer: reckless,
    });
    expect(report.illegalCalls).toBeGreaterThan(0);
    expect(report.capExceeded).toBeGreaterThan(0);
  });
});
