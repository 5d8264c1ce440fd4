#!/usr/bin/env node
'use strict';
// What `npm start` (and `npm run cli`) spend before the server starts: the build check of
// scripts/build-stamp.js when the sources are unchanged (the stamp matches: no build), and, with
// --rebuild, one start after a source change (the stamp removed: a full `npm run build`).
//
//   npm run build && node bench/startup/npm-start.js [--runs N] [--rebuild]
//
// Prints wall-clock milliseconds, with the load average.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf('--runs') + 1]) || 5;

function timed(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return { wallMs, stderr: String(result.stderr) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const load = os.loadavg()[0].toFixed(2);
const fresh = [];
for (let i = 0; i < runs; i += 1) {
  const { wallMs, stderr } = timed(['scripts/build-stamp.js', 'ensure']);
  if (!stderr.includes('up to date')) throw new Error('the build was not up to date: build first');
  fresh.push(wallMs);
}
console.log(
  `unchanged sources: build check median ${median(fresh).toFixed(0)} ms ` +
    `(min ${Math.min(...fresh).toFixed(0)}, max ${Math.max(...fresh).toFixed(0)}, ${runs} runs)`,
);
if (argv.includes('--rebuild')) {
  fs.rmSync(path.join(ROOT, 'dist/.build-stamp'), { force: true });
  const { wallMs } = timed(['scripts/build-stamp.js', 'ensure']);
  console.log(`changed sources: build check + npm run build ${wallMs.toFixed(0)} ms`);
}
console.log(`1-minute load average before the runs: ${load} (${os.cpus().length} cores)`);
