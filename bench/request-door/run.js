#!/usr/bin/env node
'use strict';
// How fast a running server refuses what it should not read (docs/reliability.md):
//  - time to the 413 for a 100 MB Content-Length, having sent only the headers (target <= 100 ms);
//  - time until a slow-loris connection (headers a byte at a time) is closed by the server.
//
//   npm run build && node dist/bundle/main.js &     # or any running Switchboard
//   node bench/request-door/run.js [--url http://127.0.0.1:3000] [--runs 20]
//
// Plain Node, no dependencies; all traffic goes to the given server only.

const net = require('node:net');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const url = new URL(option('url', 'http://127.0.0.1:3000'));
const runs = Number(option('runs', '20'));
const SLOW_LORIS_GIVE_UP_MS = 120_000;

/** Opens a connection, runs `talk` on it, resolves when the server closes it. */
function exchange(talk) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port || 80), url.hostname);
    let received = '';
    let startedAt = 0;
    let firstByteAt;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      startedAt = performance.now();
      talk(socket);
    });
    socket.on('data', (data) => {
      firstByteAt ??= performance.now();
      received += data;
    });
    socket.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () =>
      resolve({
        status: Number(received.split(' ', 2)[1]),
        firstByteMs: firstByteAt === undefined ? undefined : firstByteAt - startedAt,
        closedMs: performance.now() - startedAt,
      }),
    );
  });
}

const headers = (lines) => `${lines.join('\r\n')}\r\n\r\n`;

async function oversizedContentLength() {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const result = await exchange((socket) =>
      socket.write(
        headers([
          'POST /api/auth/login HTTP/1.1',
          `Host: ${url.host}`,
          'Content-Type: application/json',
          'Content-Length: 104857600',
        ]),
      ),
    );
    if (result.status !== 413) throw new Error(`expected 413, got ${result.status}`);
    times.push(result.closedMs);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { median: at(0.5), p95: at(0.95), max: times[times.length - 1] };
}

async function slowLoris() {
  const request = headers(['GET /health/live HTTP/1.1', `Host: ${url.host}`, 'X-Slow: loris']);
  let timer;
  const result = await exchange((socket) => {
    let index = 0;
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write(request[index++ % request.length]);
    }, 500);
    setTimeout(() => socket.destroy(), SLOW_LORIS_GIVE_UP_MS).unref();
  });
  clearInterval(timer);
  return result;
}

async function main() {
  console.log(`Server: ${url.origin}`);
  const refused = await oversizedContentLength();
  const fmt = (ms) => `${ms.toFixed(1)} ms`;
  console.log(
    `413 for a 100 MB Content-Length (headers only, ${runs} runs): ` +
      `median ${fmt(refused.median)}, p95 ${fmt(refused.p95)}, max ${fmt(refused.max)} (target <= 100 ms)`,
  );
  const loris = await slowLoris();
  console.log(
    `Slow-loris (one header byte every 500 ms): closed after ${(loris.closedMs / 1000).toFixed(1)} s ` +
      `with ${loris.status || 'no answer'}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
