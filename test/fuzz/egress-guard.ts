import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, Socket, type TcpNetConnectOpts } from 'node:net';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const isLoopback = (address: string) =>
  /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);

function refused(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`fuzz egress guard: ${host} is not loopback`), {
    code: 'ECONNREFUSED',
  });
}

/**
 * Keeps the fuzzed app on this machine: every TCP connection this process opens (webhook
 * deliveries, provider adapters, anything) may only reach a loopback address; others fail at
 * once as refused. Counts what it stopped. `release()` restores `net.Socket#connect`.
 */
export class EgressGuard {
  readonly blocked = new Map<string, number>();
  private readonly original = Socket.prototype.connect;

  constructor() {
    const original = this.original;
    const count = (host: string) => this.blocked.set(host, (this.blocked.get(host) ?? 0) + 1);
    Socket.prototype.connect = function (this: Socket, ...given: unknown[]) {
      // net.createConnection passes its already normalized [options, callback] as one array
      const args = Array.isArray(given[0]) ? (given[0] as unknown[]) : given;
      const first = args[0];
      if (first !== null && typeof first === 'object' && 'path' in first) {
        return original.apply(this, args as never); // unix socket
      }
      const options: TcpNetConnectOpts =
        first !== null && typeof first === 'object'
          ? { ...(first as TcpNetConnectOpts) }
          : { port: Number(first), host: typeof args[1] === 'string' ? args[1] : undefined };
      const callback = args.find((arg) => typeof arg === 'function');
      const host = options.host ?? 'localhost';
      if (isIP(host)) {
        if (!isLoopback(host)) {
          count(host);
          process.nextTick(() => this.destroy(refused(host)));
          return this;
        }
      } else {
        const lookup = options.lookup ?? dnsLookup;
        options.lookup = (name: string, lookupOptions: object, done: LookupCallback) =>
          lookup(name, lookupOptions, (error, address, family) => {
            const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
            if (!error && all.some((a) => !isLoopback(a))) {
              count(name);
              return done(refused(name), Array.isArray(address) ? [] : '');
            }
            done(error, address, family);
          });
      }
      return original.apply(this, (callback ? [options, callback] : [options]) as never);
    };
  }

  release(): void {
    Socket.prototype.connect = this.original;
  }
}
