import numberZones from './data/number-zones.json';
import { calleeZonesOf } from './callee-zones';
import { JURISDICTION_RULES } from './jurisdiction-rules';
import { isValidZone, zoneOffsets } from './zone-offsets';

describe('callee zones', () => {
  it('reads split area codes as every zone they span', () => {
    expect(calleeZonesOf('+18505550123')).toMatchObject({
      source: 'area_code',
      areaCode: '850',
      regions: ['FL'],
      country: 'US',
      zones: ['America/Chicago', 'America/New_York'],
    });
    // Not in E.164 form: parsed, same answer.
    expect(calleeZonesOf('+1 (850) 555-0123')).toBe(calleeZonesOf('+18505550123'));
    expect(calleeZonesOf('+16055550123').zones).toEqual(
      expect.arrayContaining(['America/Chicago', 'America/Denver']),
    );
  });

  it('outside NANP uses the longest known prefix, then the country, else nothing', () => {
    expect(calleeZonesOf('+442071234567')).toMatchObject({
      source: 'prefix',
      zones: ['Europe/London'],
    });
    expect(calleeZonesOf('+61891234567')).toMatchObject({ source: 'prefix' });
    expect(calleeZonesOf('+493012345678')).toMatchObject({ source: 'country', country: 'DE' });
    expect(calleeZonesOf('+18005550123')).toMatchObject({ source: 'country', country: 'US' });
    expect(calleeZonesOf('+19995550123')).toMatchObject({ source: 'unknown', zones: [] });
    expect(calleeZonesOf('not a number')).toMatchObject({ source: 'unknown', zones: [] });
  });

  it('a valid contact timezone the number may be in wins; the state stays presumed from the area code', () => {
    // 850 (Florida's panhandle) is Central and Eastern.
    expect(calleeZonesOf('+18505550123', 'America/Chicago')).toMatchObject({
      source: 'contact',
      zones: ['America/Chicago'],
      regions: ['FL'],
    });
    // Madrid is no zone a 305 number is in: the number's zones, the contact's noted.
    expect(calleeZonesOf('+13055550123', 'Europe/Madrid')).toMatchObject({
      source: 'area_code',
      zones: ['America/New_York'],
      ignoredContactTimezone: 'Europe/Madrid',
    });
    // Trusted by the batch, or for a number whose zones are unknown, any valid zone is taken.
    expect(calleeZonesOf('+13055550123', 'Europe/Madrid', true)).toMatchObject({
      source: 'contact',
      zones: ['Europe/Madrid'],
      regions: ['FL'],
    });
    expect(calleeZonesOf('+19995550123', 'Europe/Madrid')).toMatchObject({
      source: 'contact',
      zones: ['Europe/Madrid'],
    });
    expect(calleeZonesOf('+13055550123', 'Nowhere/Land')).toMatchObject({
      source: 'area_code',
      ignoredContactTimezone: 'Nowhere/Land',
    });
  });

  it('the generated data agrees with the NANPA area codes of the states with rules', () => {
    const byState = (state: string): string[] =>
      Object.entries(numberZones.usStates)
        .filter(([, code]) => code === state)
        .map(([areaCode]) => areaCode)
        .sort();
    const usRules = Object.keys(JURISDICTION_RULES).filter((code) => code !== 'BC');
    expect(usRules.sort()).toEqual('AL CT FL KY MA MD MS NM OK RI TX UT WA WY'.split(' '));
    const nanpa: Record<string, string> = {
      AL: '205 251 256 334 659 938',
      CT: '203 475 860 959',
      FL: '239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954',
      KY: '270 364 502 606 859',
      MA: '339 351 413 508 617 774 781 857 978',
      MD: '227 240 301 410 443 667',
      MS: '228 601 662 769',
      NM: '505 575',
      OK: '405 539 572 580 918',
      RI: '401',
      TX: '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 915 936 940 945 956 972 979',
      UT: '385 435 801',
      WA: '206 253 360 425 509 564',
      WY: '307',
    };
    for (const state of usRules)
      expect([state, byState(state)]).toEqual([state, nanpa[state].split(' ')]);
  });

  it('Canadian area codes map to their province (several for a shared overlay)', () => {
    const byProvince: Record<string, string[]> = {};
    for (const [areaCode, provinces] of Object.entries(numberZones.caProvinces))
      (byProvince[provinces.join('/')] ??= []).push(areaCode);
    expect(byProvince).toEqual({
      AB: '368 403 587 780 825'.split(' '),
      BC: '236 250 257 604 672 778'.split(' '),
      MB: '204 431 584'.split(' '),
      NB: '428 506'.split(' '),
      NL: '709 879'.split(' '),
      'NS/PE': '782 902'.split(' '),
      'NT/NU/YT': ['867'],
      ON: '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 807 905 942'.split(' '),
      QC: '263 354 367 418 438 450 468 514 579 581 819 873'.split(' '),
      SK: '306 474 639'.split(' '),
    });
    expect(calleeZonesOf('+14165550123')).toMatchObject({
      source: 'area_code',
      country: 'CA',
      regions: ['ON'],
      zones: ['America/Toronto'],
    });
    expect(calleeZonesOf('+19025550123').regions).toEqual(['NS', 'PE']);
    // 905 has no area-code entry in Google's geocoding: every prefix under it says Ontario.
    expect(calleeZonesOf('+19055550123').regions).toEqual(['ON']);
    // Neither a state nor a province: no regions (only the country's hours apply).
    expect(calleeZonesOf('+17875550123')).toMatchObject({ source: 'area_code', regions: [] });
  });

  it('every zone in the data is known to this runtime', () => {
    const zones = new Set(
      [...Object.values(numberZones.nanpAreaCodes), ...Object.values(numberZones.prefixes)].flat(),
    );
    expect([...zones].filter((zone) => !isValidZone(zone))).toEqual([]);
  });
});

describe('zone offsets', () => {
  it('match Intl at random instants and at the minutes around each 2026 change', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'America/Santiago',
      'Asia/Kolkata',
    ];
    const formats = new Map<string, Intl.DateTimeFormat>();
    const intlOffset = (zone: string, at: number): number => {
      const format =
        formats.get(zone) ??
        new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
      formats.set(zone, format);
      const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
      const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name ?? '') as RegExpExecArray;
      return match[1]
        ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
        : 0;
    };
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (const zone of zones) {
      const offsets = zoneOffsets(zone);
      for (let i = 0; i < 400; i += 1) {
        const at = start + Math.floor(((i * 7919) % 400) * 0.9125 * 86_400_000 + i * 997);
        expect([zone, at, offsets.offsetAt(at)]).toEqual([zone, at, intlOffset(zone, at)]);
      }
      const segments = offsets.segments(start, start + 365 * 86_400_000);
      expect([zone, segments.length]).toEqual([zone, zone === 'Asia/Kolkata' ? 1 : 3]);
      for (const segment of segments.slice(1)) {
        for (const at of [segment.start - 1, segment.start]) {
          expect([zone, at, offsets.offsetAt(at)]).toEqual([zone, at, intlOffset(zone, at)]);
        }
      }
    }
  });
});
