import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes a generated file, or with `check` fails (exit 1) when the committed one differs from
 * what the code generates now: CI's drift checks (openapi:check, sdk:check).
 */
export function writeOrCheck(
  target: string,
  text: string,
  check: boolean,
  regenerate: string,
): void {
  if (!check) {
    writeFileSync(target, text);
    console.log(`Wrote ${target}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (committed !== text) {
    console.error(`${target} is stale: run "${regenerate}" and commit it.`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
}
