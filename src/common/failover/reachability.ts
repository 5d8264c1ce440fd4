import { connect } from 'node:net';

const PROBE_TIMEOUT_MS = 3_000;

/**
 * Why the host of `url` cannot be reached (no TCP connection within the bound), or undefined when
 * it can. The reason is an error code, never the address: it goes to the start-up log.
 */
export function unreachableReason(
  url: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | undefined> {
  const target = new URL(url);
  const secure = target.protocol === 'https:' || target.protocol === 'wss:';
  const port = Number(target.port) || (secure ? 443 : 80);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done('no connection within 3 s'), timeoutMs);
    timer.unref();
    socket.unref();
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(typeof error.code === 'string' ? error.code : 'connection failed'),
    );
  });
}
