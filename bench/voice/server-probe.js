'use strict';
// The built server with a small read-only stats endpoint beside it, for the voice bench:
//   GET /memory  after two full GCs: rss, heapUsed, external, arrayBuffers (bytes)
//   GET /load    since the previous /load: process CPU %, event-loop utilization, event-loop
//                delay p50/p99/max (ms)
// It listens on 127.0.0.1:VOICE_PROBE_PORT and never keeps the process alive; the server itself
// is required unchanged (VOICE_PROBE_ENTRY, default dist/bundle/main.js). With
// VOICE_PROBE_CPU_PROFILE=<file> the whole run is CPU-profiled into that .cpuprofile at exit.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let utilization = performance.eventLoopUtilization();
let cpu = process.cpuUsage();
let since = performance.now();

function load() {
  const now = performance.now();
  const used = process.cpuUsage(cpu);
  const result = {
    cpuPercent: ((used.user + used.system) / 1_000 / (now - since)) * 100,
    loopUtilization: performance.eventLoopUtilization(utilization).utilization,
    loopDelayP50Ms: delay.percentile(50) / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
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

const profileFile = process.env.VOICE_PROBE_CPU_PROFILE;
if (profileFile) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.enable');
  session.post('Profiler.start');
  // The in-process inspector answers synchronously, so this completes inside the exit handler.
  process.on('exit', () =>
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(profileFile, JSON.stringify(result.profile));
    }),
  );
}

require(process.env.VOICE_PROBE_ENTRY || path.join(__dirname, '../../dist/bundle/main.js'));
