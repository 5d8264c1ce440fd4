'use strict';
// The built server with a small read-only stats endpoint beside it, for the voice bench:
//   GET /memory  after two full GCs: rss, heapUsed, external, arrayBuffers (bytes)
//   GET /load    since the previous /load: process CPU %, event-loop utilization, event-loop
//                delay p50/p99/max (ms), GC pauses (count, p99, max, total ms, full GCs), and the jitter of
//                the server's own writes of media frames (|interval - 20 ms| between consecutive
//                `media` messages written to one socket, p50/p99/max): the pacing as sent,
//                before the kernel and the receiving process add their share
// It listens on 127.0.0.1:VOICE_PROBE_PORT and never keeps the process alive; the server itself
// is required unchanged (VOICE_PROBE_ENTRY, default dist/bundle/main.js). With
// VOICE_PROBE_CPU_PROFILE=<file> the whole run is CPU-profiled into that .cpuprofile at exit, and
// with VOICE_PROBE_HEAP_PROFILE=<file> its allocations are sampled into that .heapprofile.
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
} = require('node:perf_hooks');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let utilization = performance.eventLoopUtilization();
let cpu = process.cpuUsage();
let since = performance.now();

// GC pauses, from the runtime's own performance entries.
// Full (mark-compact) GCs counted apart: each marks the whole heap, on the calls' cores.
let gcPauses = [];
let fullGcs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcPauses.push(entry.duration);
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullGcs += 1;
  }
}).observe({ entryTypes: ['gc'] });

// When each media frame left the process: ws writes a message's header and its payload as two
// socket writes, an unmasked text payload as the string it was given; an outbound media message
// starts with MEDIA_PREFIX.
const MEDIA_PREFIX = '{"event":"media"';
const FRAME_MS = 20;
/** A longer silence between two frames is the end of one reply, not a late frame. */
const STRETCH_GAP_MS = 250;
const sendTimes = Symbol('mediaSendTimes');
let sockets = new Set();
const isMedia = (chunk) =>
  typeof chunk === 'string'
    ? chunk.startsWith(MEDIA_PREFIX)
    : Buffer.isBuffer(chunk) &&
      chunk.length > MEDIA_PREFIX.length &&
      chunk.toString('latin1', 0, MEDIA_PREFIX.length) === MEDIA_PREFIX;
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (chunk, ...rest) {
  if (isMedia(chunk)) {
    const times = this[sendTimes] ?? (this[sendTimes] = []);
    if (times.length === 0) sockets.add(this);
    times.push(performance.now());
  }
  return write.call(this, chunk, ...rest);
};

function percentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

function sendJitter() {
  const jitters = [];
  for (const socket of sockets) {
    const times = socket[sendTimes];
    for (let i = 1; i < times.length; i++) {
      const interval = times[i] - times[i - 1];
      if (interval < STRETCH_GAP_MS) jitters.push(Math.abs(interval - FRAME_MS));
    }
    times.length = 0;
  }
  sockets = new Set();
  const p = percentiles(jitters);
  return {
    sendJitterFrames: jitters.length,
    sendJitterP50Ms: p.p50,
    sendJitterP99Ms: p.p99,
    sendJitterMaxMs: p.max,
  };
}

function load() {
  const now = performance.now();
  const used = process.cpuUsage(cpu);
  const result = {
    cpuPercent: ((used.user + used.system) / 1_000 / (now - since)) * 100,
    loopUtilization: performance.eventLoopUtilization(utilization).utilization,
    loopDelayP50Ms: delay.percentile(50) / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
    gcCount: gcPauses.length,
    gcP99Ms: percentiles(gcPauses).p99,
    gcMaxMs: percentiles(gcPauses).max,
    gcTotalMs: gcPauses.reduce((a, b) => a + b, 0),
    fullGcs,
    ...sendJitter(),
  };
  gcPauses = [];
  fullGcs = 0;
  delay.reset();
  utilization = performance.eventLoopUtilization();
  cpu = process.cpuUsage();
  since = now;
  return result;
}

function memory() {
  gc();
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}

const probe = http.createServer((request, response) => {
  const routes = { '/memory': memory, '/load': load };
  const route = routes[request.url];
  response.writeHead(route ? 200 : 404, { 'content-type': 'application/json' });
  response.end(route ? JSON.stringify(route()) : '{}');
});
probe.listen(Number(process.env.VOICE_PROBE_PORT), '127.0.0.1');
probe.unref();

// The in-process inspector answers synchronously, so a profile stopped in the exit handler is
// written before the process ends.
let inspectorSession;
function profileUntilExit(file, start, stop) {
  if (!file) return;
  if (!inspectorSession) {
    inspectorSession = new (require('node:inspector').Session)();
    inspectorSession.connect();
  }
  for (const [method, params] of start) inspectorSession.post(method, params);
  process.on('exit', () =>
    inspectorSession.post(stop, (error, result) => {
      if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
    }),
  );
}

// VOICE_PROBE_CPU_PROFILE=<file>: where the run's time goes.
profileUntilExit(
  process.env.VOICE_PROBE_CPU_PROFILE,
  [['Profiler.setSamplingInterval', { interval: 200 }], ['Profiler.enable'], ['Profiler.start']],
  'Profiler.stop',
);
// VOICE_PROBE_HEAP_PROFILE=<file>: what the run allocates (collected objects included), sampled.
profileUntilExit(
  process.env.VOICE_PROBE_HEAP_PROFILE,
  [
    [
      'HeapProfiler.startSampling',
      {
        samplingInterval: 16384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      },
    ],
  ],
  'HeapProfiler.stopSampling',
);

require(process.env.VOICE_PROBE_ENTRY || path.join(__dirname, '../../dist/bundle/main.js'));
