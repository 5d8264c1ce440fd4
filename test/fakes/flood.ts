import type { ServerResponse } from 'node:http';

/** One endless response a fake sent: how much went out before the client hung up. */
export interface Flood {
  bytesSent: number;
  /** Resolves when the connection closed (the client gave up, or the cap was reached). */
  closed: Promise<void>;
}

// A safety cap so a client without a limit still ends (slowly) instead of exhausting memory.
const CAP_BYTES = 256 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** 200 with a JSON-looking body that never ends, written as fast as the client reads it. */
export function flood(res: ServerResponse): Flood {
  let markClosed!: () => void;
  const record: Flood = { bytesSent: 0, closed: new Promise((resolve) => (markClosed = resolve)) };
  res.on('close', () => markClosed());
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const pump = () => {
    while (!res.destroyed && record.bytesSent < CAP_BYTES) {
      record.bytesSent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.write('{"data":"');
  pump();
  return record;
}
