import { getCountry } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import numberZones from './data/number-zones.json';
import { isValidZone } from './zone-offsets';

/**
 * Where a callee's zones came from:
 * - contact: the contact's own valid `timezone` field;
 * - area_code: a NANP area code (every zone any part of it is in);
 * - prefix: the longest number prefix in libphonenumber's timezone map (outside NANP);
 * - country: the number's country (all its zones) when the prefix says nothing finer;
 * - calling_code: every zone of the country calling code, when no single country is known;
 * - unknown: nothing known; only the batch window applies (the permit says so).
 */
export type ZoneSource =
  'contact' | 'area_code' | 'prefix' | 'country' | 'calling_code' | 'unknown';

export interface CalleeZones {
  zones: readonly string[];
  source: ZoneSource;
  /**
   * US states or Canadian provinces presumed from the NANP area code (drive the jurisdiction
   * rules): one, several for an overlay shared by provinces (902: NS and PE), or none.
   */
  regions: readonly string[];
  areaCode?: string;
  country?: string;
  /**
   * The contact's timezone field, when it was present but not used: not a valid IANA zone, or
   * not one the number may be in (and the batch does not trust it).
   */
  ignoredContactTimezone?: string;
}

const NANP_AREA_CODES: Readonly<Record<string, string[]>> = numberZones.nanpAreaCodes;
const US_STATES: Readonly<Record<string, string>> = numberZones.usStates;
const CA_PROVINCES: Readonly<Record<string, string[]>> = numberZones.caProvinces;
const PREFIXES: Readonly<Record<string, string[]>> = numberZones.prefixes;
const NANP = /^\+1(\d{3})\d{7}$/;

// Zones usable by this Node's ICU only; a name the runtime does not know would make every
// window check throw, so it is dropped here once per list.
const usable = new Map<readonly string[], readonly string[]>();
function usableZones(zones: readonly string[]): readonly string[] {
  let kept = usable.get(zones);
  if (!kept) {
    kept = zones.filter(isValidZone);
    usable.set(zones, kept);
  }
  return kept;
}

const countryZones = new Map<string, readonly string[]>();
function zonesOfCountry(country: string): readonly string[] {
  let zones = countryZones.get(country);
  if (!zones) {
    zones = usableZones(getCountry(country)?.timezones ?? []);
    countryZones.set(country, zones);
  }
  return zones;
}

const NO_REGION: readonly string[] = [];
const regionLists = new Map<string, readonly string[]>();

/** The state or provinces of a NANP area code, and its country when the data says. */
function regionsOf(areaCode: string): { regions: readonly string[]; country?: string } {
  const state = US_STATES[areaCode];
  if (state) {
    let regions = regionLists.get(state);
    if (!regions) regionLists.set(state, (regions = [state]));
    return { regions, country: 'US' };
  }
  const provinces = CA_PROVINCES[areaCode];
  return provinces ? { regions: provinces, country: 'CA' } : { regions: NO_REGION };
}

const byAreaCode = new Map<string, CalleeZones>();
function areaCodeZones(areaCode: string): CalleeZones | undefined {
  let found = byAreaCode.get(areaCode);
  if (!found && NANP_AREA_CODES[areaCode]) {
    found = {
      zones: usableZones(NANP_AREA_CODES[areaCode]),
      source: 'area_code',
      areaCode,
      ...regionsOf(areaCode),
    };
    byAreaCode.set(areaCode, found);
  }
  return found;
}

/** The zones a number may be in, without the contact's own field. */
export function numberZonesOf(phoneNumber: string): CalleeZones {
  // Fast path: E.164 NANP needs no full parse.
  const nanp = NANP.exec(phoneNumber);
  if (nanp) {
    const known = areaCodeZones(nanp[1]);
    if (known) return known;
  }
  const parsed = parsePhoneNumberFromString(phoneNumber);
  if (!parsed) return { zones: [], source: 'unknown', regions: NO_REGION };
  const callingCode = parsed.countryCallingCode;
  const country = parsed.country;
  const areaCode = callingCode === '1' ? parsed.nationalNumber.slice(0, 3) : undefined;
  const known = areaCode ? areaCodeZones(areaCode) : undefined;
  if (known) return known;
  const regions = areaCode ? regionsOf(areaCode).regions : NO_REGION;
  if (callingCode !== '1') {
    const digits = `${callingCode}${parsed.nationalNumber}`;
    for (let length = digits.length; length > callingCode.length; length -= 1) {
      const zones = PREFIXES[digits.slice(0, length)];
      if (zones) return { zones: usableZones(zones), source: 'prefix', country, regions };
    }
  }
  if (country) {
    const zones = zonesOfCountry(country);
    if (zones.length > 0) return { zones, source: 'country', country, areaCode, regions };
  }
  // NANP's calling-code entry spans Guam to Newfoundland (no common 08:00–21:00): not used.
  const shared = callingCode === '1' ? undefined : PREFIXES[callingCode];
  if (shared) return { zones: usableZones(shared), source: 'calling_code', areaCode, regions };
  return { zones: [], source: 'unknown', areaCode, country, regions };
}

/**
 * The zones to check for a callee: the contact's timezone field where it can be believed — a
 * valid zone the number may be in, any valid zone for a number whose zones are unknown, or any
 * valid zone when the batch trusts its contacts' timezones — else every zone of the number (the
 * strictest wins): a CRM's "UTC" default, or a New York number said to be in Tokyo, cannot open
 * a call at night.
 */
export function calleeZonesOf(
  phoneNumber: string,
  contactTimezone?: string,
  trusted = false,
): CalleeZones {
  const fromNumber = numberZonesOf(phoneNumber);
  if (contactTimezone === undefined || contactTimezone === '') return fromNumber;
  const believable =
    trusted || fromNumber.zones.length === 0 || fromNumber.zones.includes(contactTimezone);
  if (isValidZone(contactTimezone) && believable) {
    return {
      zones: [contactTimezone],
      source: 'contact',
      regions: fromNumber.regions,
      areaCode: fromNumber.areaCode,
      country: fromNumber.country,
    };
  }
  return { ...fromNumber, ignoredContactTimezone: contactTimezone };
}
