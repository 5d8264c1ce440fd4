import { isIP } from 'node:net';
import { type AddressClass, classifyAddress } from './address-class';

/** One resolved address of a host name, as `dns.promises.lookup(host, { all: true })` gives. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; injectable so tests can simulate rebinding. */
export type WebhookDnsResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetPolicyOptions {
  /** Tests only (WEBHOOK_ALLOW_PRIVATE_TARGETS): private, loopback… addresses are allowed. */
  allowPrivateTargets: boolean;
  resolve: WebhookDnsResolver;
}

export type TargetVerdict = { allowed: true; url: URL } | { allowed: false; reason: string };

const MIN_UNPRIVILEGED_PORT = 1024;
const DESCRIBED: Record<Exclude<AddressClass, 'global'>, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a shared (carrier-grade NAT) address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  documentation: 'a documentation address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  invalid: 'an invalid address',
};

/** Host names that are local by definition, whatever a resolver says (RFC 6761, RFC 8375). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

const refuse = (reason: string): TargetVerdict => ({ allowed: false, reason });

/** Why an address may not be dialed, or undefined when it may. */
function addressRefusal(address: string, allowPrivateTargets: boolean): string | undefined {
  const cls = classifyAddress(address);
  if (cls === 'global' || (allowPrivateTargets && cls !== 'invalid')) return undefined;
  return `${address} is ${DESCRIBED[cls]}`;
}

/** The first address of a host that may not be dialed (one bad address refuses the host). */
export function firstRefusal(
  addresses: readonly ResolvedAddress[],
  allowPrivateTargets: boolean,
): { address: string; reason: string } | undefined {
  for (const { address } of addresses) {
    const reason = addressRefusal(address, allowPrivateTargets);
    if (reason) return { address, reason };
  }
  return undefined;
}

/**
 * Everything that can be decided from the URL text alone: scheme, credentials, port, and the
 * class of an IP-literal host. WHATWG URL parsing has already turned decimal, hex and octal IPv4
 * forms (`https://2130706433`, `0x7f.0.0.1`, `0177.0.0.1`) into dotted quads and compressed IPv6.
 */
export function checkUrlShape(
  input: string,
  allowPrivateTargets: boolean,
): TargetVerdict & { hostname?: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('url must be an absolute https URL');
  }
  if (url.protocol !== 'https:') return refuse('url must use https');
  if (url.username || url.password) return refuse('url must not contain credentials');
  const port = url.port === '' ? 443 : Number(url.port);
  if (port !== 443 && port < MIN_UNPRIVILEGED_PORT)
    return refuse(`url port must be 443 or between 1024 and 65535 (got ${port})`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refusal = addressRefusal(host, allowPrivateTargets);
    return refusal ? refuse(`url host ${refusal}`) : { allowed: true, url };
  }
  const name = host.replace(/\.+$/, '').toLowerCase();
  if (!name) return refuse('url must have a host name');
  if (!allowPrivateTargets && LOCAL_NAME.test(name))
    return refuse(`url host ${host} is a local name`);
  return { allowed: true, url, hostname: host };
}

/**
 * The save-time check of a webhook URL: its shape, then every address its host resolves to must
 * be globally routable unicast (one bad address refuses the URL: an attacker controls which one
 * a client picks). Delivery re-checks the shape before each attempt and resolves again only at
 * connect time (WebhookTargetGuard.lookup), so a host that rebinds later still cannot be reached.
 */
export async function checkWebhookTarget(
  input: string,
  options: TargetPolicyOptions,
): Promise<TargetVerdict> {
  const shape = checkUrlShape(input, options.allowPrivateTargets);
  if (!shape.allowed) return shape;
  const { url, hostname } = shape;
  // An IP literal was classified with the shape; private targets allowed: nothing to resolve.
  if (hostname === undefined || options.allowPrivateTargets) return { allowed: true, url };
  let addresses: ResolvedAddress[];
  try {
    addresses = await options.resolve(hostname);
  } catch {
    return refuse(`url host ${hostname} does not resolve`);
  }
  if (addresses.length === 0) return refuse(`url host ${hostname} does not resolve`);
  const refusal = firstRefusal(addresses, false);
  if (refusal) return refuse(`url host ${hostname} resolves to ${refusal.reason}`);
  return { allowed: true, url };
}
