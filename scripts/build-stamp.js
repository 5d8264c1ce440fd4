#!/usr/bin/env node
'use strict';
// Builds only when the sources changed: `npm start` and `npm run cli` run `ensure` first.
//
//   node scripts/build-stamp.js ensure   build (npm run build) unless the stamp matches, then stamp
//   node scripts/build-stamp.js write    stamp the current sources (the end of npm run build)
//   node scripts/build-stamp.js check    exit 0 when the build is up to date, 1 otherwise
//   [--root DIR] another checkout (tests); [--build "command"] instead of `npm run build`
//
// The stamp (dist/.build-stamp) is a SHA-256 over the path and content of every build input:
// src/ and libs/ (migrations included), package.json, package-lock.json, tsconfig*.json and
// scripts/bundle.js. Contents, not modification times: a checkout or `touch` alone does not
// rebuild, an edit always does. Reading ~700 files takes tens of milliseconds.
// Everything this script prints goes to stderr: stdout belongs to the program started after it.

const { createHash } = require('node:crypto');
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const INPUT_DIRS = ['src', 'libs'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/bundle.js',
];
const STAMP = 'dist/.build-stamp';
/** What the build must have produced for the stamp to count. */
const OUTPUTS = ['dist/bundle/main.js'];

function filesUnder(root, dir) {
  const absolute = path.join(root, dir);
  if (!fs.existsSync(absolute)) return [];
  return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(root, relative);
    return entry.isFile() ? [relative] : [];
  });
}

/** The hash of every build input under `root`, in a stable order. */
function inputsHash(root) {
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(root, dir)),
    ...INPUT_FILES.filter((file) => fs.existsSync(path.join(root, file))),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function isUpToDate(root, hash = inputsHash(root)) {
  const stamp = path.join(root, STAMP);
  if (!OUTPUTS.every((output) => fs.existsSync(path.join(root, output)))) return false;
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === hash;
}

function writeStamp(root, hash = inputsHash(root)) {
  fs.mkdirSync(path.join(root, path.dirname(STAMP)), { recursive: true });
  fs.writeFileSync(path.join(root, STAMP), `${hash}\n`);
}

/** Builds when needed; returns whether it built. The hash is taken before the build starts. */
function ensure(root, buildCommand) {
  const hash = inputsHash(root);
  if (isUpToDate(root, hash)) {
    process.stderr.write('Build up to date (sources unchanged since the last build)\n');
    return false;
  }
  process.stderr.write('Sources changed since the last build: building\n');
  // The build's own output goes to stderr too.
  execSync(buildCommand, { cwd: root, stdio: ['ignore', 2, 2] });
  writeStamp(root, hash);
  return true;
}

function main(argv) {
  const [command] = argv;
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
  };
  const root = path.resolve(option('--root', path.join(__dirname, '..')));
  switch (command) {
    case 'ensure':
      ensure(root, option('--build', 'npm run -s build'));
      return 0;
    case 'write':
      writeStamp(root);
      return 0;
    case 'check':
      return isUpToDate(root) ? 0 : 1;
    default:
      process.stderr.write('usage: build-stamp.js ensure|write|check [--root DIR] [--build CMD]\n');
      return 2;
  }
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    // A failed build has printed its errors already.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

module.exports = { inputsHash, isUpToDate, writeStamp, ensure };
