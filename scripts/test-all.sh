#!/usr/bin/env bash
# The whole test suite, from a fresh machine: services, dependencies, static checks, unit,
# integration (real PostgreSQL + Redis) and end-to-end tests of the embedded mode.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

ensure_postgres() {
  if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then return; fi
  if ! ls /etc/postgresql >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p 5432 && return; sleep 0.5; done
  echo "PostgreSQL did not start" >&2
  exit 1
}

ensure_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then return; fi
  if ! command -v redis-server >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 60); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return; sleep 0.5; done
  echo "Redis did not start" >&2
  exit 1
}

# The offline speech engine the voice tests speak and listen with (contract §8): Debian packages,
# installed only when a binary or the model is missing.
ensure_speech_packages() {
  if command -v espeak-ng >/dev/null && command -v pocketsphinx_batch >/dev/null &&
    command -v sox >/dev/null && [ -d /usr/share/pocketsphinx/model/en-us/en-us ]; then
    return
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "Install as root: apt-get install pocketsphinx pocketsphinx-en-us libpocketsphinx3 espeak-ng sox" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    pocketsphinx pocketsphinx-en-us libpocketsphinx3 espeak-ng sox >/dev/null
}

# Headless Chromium for the Swagger UI test (playwright-core drives Debian's package, no download).
ensure_chromium() {
  if command -v chromium >/dev/null; then return; fi
  if [ "$(id -u)" != 0 ]; then
    echo "Install as root: apt-get install chromium" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

step "Services: PostgreSQL and Redis"
ensure_postgres
ensure_redis

step "Offline speech engine: eSpeak NG and PocketSphinx"
ensure_speech_packages

step "Headless Chromium (Swagger UI test)"
ensure_chromium

step "Dependencies (npm install: npm ci fails on this registry's missing foreign binaries)"
npm install --no-audit --no-fund --loglevel=error

step "Lint and format"
npm run lint

step "Type-check"
npm run typecheck

step "Build"
npm run build

step "Schema and migrations in step"
bash scripts/check-migrations.sh

step "OpenAPI description valid (swagger-parser) and up to date"
npm run openapi:check

step "Typed client (libs/client) up to date with openapi.json"
npm run sdk:check

results=.test-results
rm -rf "$results" && mkdir -p "$results"
export NODE_OPTIONS=--experimental-vm-modules
# The HTTPS webhook receivers of the tests serve certificates of this CA (read at process start).
export NODE_EXTRA_CA_CERTS="$PWD/test/fixtures/tls/ca.crt"
status=0
# One jest run; its results go to $results/<name>.json for the summary below.
run_jest() {
  local name=$1
  shift
  npx jest "$@" --json --outputFile="$results/$name.json" || status=1
}

# Integration files that measure real time (live calls paced at 20 ms, barge-in within 600 ms,
# throttle windows, Redis cut under load) run one at a time; the rest, two at a time. Each file
# boots its own app on its own database and Redis prefix, so they do not share state. Workers are
# replaced as their heap grows (workerIdleMemoryLimit in jest.config.js).
REAL_TIME='test/integration/(voice-|speech/|calls-end-to-end|auth-login-throttle|webhook-redis-faults|webhook-fairness)'

step "Tests: unit"
run_jest unit --selectProjects unit --runInBand

step "Tests: integration, two files at a time"
run_jest integration --selectProjects integration --maxWorkers=2 --testPathIgnorePatterns "$REAL_TIME"

# Issue #12's compliance simulation through the real scheduler at 10,000 contacts (jest's sandbox
# builds drizzle's queries ~4x slower, so it runs as the benchmark does; 2,000 run in jest). Its
# clock is simulated, so it runs beside the real-time files at the lowest CPU priority: it takes
# the core they leave idle while they wait on audio paced in real time, and gives it back at once.
compliance_log=$(mktemp)
(nice -n 19 npm run -s bench:dialer-scheduler -- --contacts 10000 --compliance >"$compliance_log" 2>&1) &
compliance=$!

step "Tests: integration, real time, one file at a time (the compliance simulation beside them)"
run_jest integration-real-time --selectProjects integration --maxWorkers=1 --testPathPatterns "$REAL_TIME"

step "Compliance: scheduler simulation, 10,000 contacts (wall time shared with the real-time tests)"
compliance_status=0
wait "$compliance" || compliance_status=$?
cat "$compliance_log"
rm -f "$compliance_log"
[ "$compliance_status" = 0 ] || status=1

step "Tests: e2e"
run_jest e2e --selectProjects e2e --runInBand

# Hostile cases for every operation of openapi.json, on PostgreSQL and on PGlite side by side:
# every input slot and core hostile value first, then random ones up to 100 per operation (fixed
# seed; `npm run fuzz` runs 200 with a random one).
step "Tests: fuzz gate"
FUZZ_CASES=100 run_jest fuzz --selectProjects fuzz --maxWorkers=2

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const file of fs.readdirSync(process.argv[1])) {
    const result = JSON.parse(fs.readFileSync(`${process.argv[1]}/${file}`, "utf8"));
    passed += result.numPassedTests;
    failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
  }
  console.log(`\nTests: ${passed} passed, ${failed} failed`);
' "$results"
exit $status
