import { isIPv4, isIPv6 } from 'node:net';

/**
 * Why an address is not a webhook target. `global` is the only class that may be dialed: a
 * globally routable unicast address (IANA special-purpose registries, RFC 6890 and successors).
 */
export type AddressClass =
  | 'global'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'documentation'
  | 'multicast'
  | 'reserved'
  | 'invalid';

type Range = readonly [first: bigint, prefixLength: number, cls: AddressClass];

const V4_BITS = 32;
const V6_BITS = 128;

function parseIPv4(text: string): bigint | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** `::`-compressed, zone-less or zoned, with or without a trailing dotted IPv4. */
function parseIPv6(input: string): bigint | undefined {
  const text = input.split('%')[0];
  if (!isIPv6(text)) return undefined;
  let groups: string[];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  let head = text;
  if (dotted) {
    const v4 = parseIPv4(dotted[1]);
    if (v4 === undefined) return undefined;
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    head = text.slice(0, -dotted[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.split('::') as [string, string | undefined];
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  if (right === undefined) {
    groups = split(left);
  } else {
    const l = split(left);
    const r = split(right);
    const missing = 8 - tail.length - l.length - r.length;
    groups = [...l, ...Array<string>(missing).fill('0'), ...r];
  }
  const values = [...groups.map((g) => parseInt(g, 16)), ...tail];
  if (values.length !== 8) return undefined;
  return values.reduce((acc, v) => (acc << 16n) | BigInt(v), 0n);
}

function v4(cidr: string, cls: AddressClass): Range {
  const [address, length] = cidr.split('/') as [string, string];
  return [parseIPv4(address)!, Number(length), cls];
}

function v6(cidr: string, cls: AddressClass): Range {
  const [address, length] = cidr.split('/') as [string, string];
  return [parseIPv6(address)!, Number(length), cls];
}

function inRange(value: bigint, bits: number, [first, length]: Range): boolean {
  const shift = BigInt(bits - length);
  return value >> shift === first >> shift;
}

/** Most specific first: the first match wins. */
const IPV4_RANGES: readonly Range[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack instance metadata
  v4('0.0.0.0/8', 'unspecified'), // "this network"
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'), // carrier-grade NAT
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'documentation'), // TEST-NET-1
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'documentation'), // TEST-NET-2
  v4('203.0.113.0/24', 'documentation'), // TEST-NET-3
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // includes 255.255.255.255 (broadcast)
];

/** Ranges whose last 32 bits (or bits 16–48 for 6to4) carry an IPv4 address to classify. */
const EMBEDDED_V4_LOW: readonly Range[] = [
  v6('::ffff:0:0/96', 'reserved'), // IPv4-mapped
  v6('64:ff9b::/96', 'reserved'), // NAT64 well-known prefix
  v6('::/96', 'reserved'), // IPv4-compatible (deprecated); :: and ::1 are matched before
];
const SIX_TO_FOUR = v6('2002::/16', 'reserved');

const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'metadata'), // AWS instance metadata over IPv6
  // Local-use NAT64 (RFC 8215): not globally reachable, and where the IPv4 sits depends on the
  // operator's prefix length, so it cannot be classified from the address alone.
  v6('64:ff9b:1::/48', 'private'),
  v6('100::/64', 'reserved'), // discard-only
  v6('2001:db8::/32', 'documentation'),
  v6('3fff::/20', 'documentation'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments, incl. Teredo 2001::/32
  v6('5f00::/16', 'reserved'), // SRv6 SIDs
  v6('fc00::/7', 'private'), // unique local
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];
const IPV6_GLOBAL_UNICAST = v6('2000::/3', 'global');

function classifyV4(value: bigint): AddressClass {
  return IPV4_RANGES.find((range) => inRange(value, V4_BITS, range))?.[2] ?? 'global';
}

function classifyV6(value: bigint): AddressClass {
  const special = IPV6_RANGES.find((range) => inRange(value, V6_BITS, range));
  if (special) return special[2];
  if (EMBEDDED_V4_LOW.some((range) => inRange(value, V6_BITS, range)))
    return classifyV4(value & 0xffff_ffffn);
  if (inRange(value, V6_BITS, SIX_TO_FOUR)) return classifyV4((value >> 80n) & 0xffff_ffffn);
  // Everything outside 2000::/3 is unassigned or special: only global unicast passes.
  return inRange(value, V6_BITS, IPV6_GLOBAL_UNICAST) ? 'global' : 'reserved';
}

/**
 * Classifies an IP address in its textual form (`203.0.113.7`, `2001:db8::1`, `::ffff:10.0.0.1`,
 * `fe80::1%eth0`; IPv6 without brackets). Embedded IPv4 addresses (IPv4-mapped, IPv4-compatible,
 * NAT64 64:ff9b::/96, 6to4) are classified as the IPv4 address they carry. Anything that is not
 * an IP address is `invalid`.
 */
export function classifyAddress(address: string): AddressClass {
  const v4Value = parseIPv4(address);
  if (v4Value !== undefined) return classifyV4(v4Value);
  const v6Value = parseIPv6(address);
  if (v6Value !== undefined) return classifyV6(v6Value);
  return 'invalid';
}

/** True only for globally routable unicast addresses: the only ones a webhook may reach. */
export function isGlobalUnicast(address: string): boolean {
  return classifyAddress(address) === 'global';
}
