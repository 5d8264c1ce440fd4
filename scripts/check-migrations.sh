#!/usr/bin/env bash
# Fails when the schema has changes that no committed migration carries.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.migrations-check
rm -rf "$scratch" && trap 'rm -rf "$scratch"' EXIT
cp -r src/database/migrations "$scratch"
output=$(npx drizzle-kit generate --dialect postgresql --schema ./src/database/schema.ts --out "$scratch" 2>&1)
if ! grep -q "No schema changes" <<<"$output"; then
  echo "$output" >&2
  echo "The schema changed without a migration: run 'npm run db:generate' and commit the result." >&2
  exit 1
fi
echo "Migrations match the schema"
