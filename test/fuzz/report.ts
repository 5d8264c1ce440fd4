import type { Family, RunResult } from './runner';

const MAX_FAMILIES_SHOWN = 40;

/**
 * A slow answer that is fast when re-sent is the machine, not the app (two cores shared with
 * PostgreSQL and argon2): noted, not failed. Every other family fails the gate.
 */
export function isFailure(family: Family): boolean {
  return !(family.intermittent && family.symptom.startsWith('slow'));
}

/** One line per driver: the figures docs/reliability.md records, and the slowest operations. */
export function summaryLine(driver: string, result: RunResult, operations: number): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const failing = result.families.filter(isFailure).length;
  const slowOps = Object.entries(result.stats)
    .sort(([, a], [, b]) => b.ms - a.ms)
    .slice(0, 4)
    .map(([id, stats]) => `${id} ${(stats.ms / 1000).toFixed(1)} s`)
    .join(', ');
  const notes = [
    ...new Set(
      result.families
        .filter((family) => !isFailure(family))
        .map((family) => `${family.operationId} ${family.symptom} once (${family.count} cases)`),
    ),
  ];
  return [
    `fuzz ${driver}: ${result.cases} cases over ${operations} operations in ${seconds} s ` +
      `(seed ${result.seed}): ${result.serverErrors} answered 5xx, ${failing} failure families; ` +
      `slowest answer ${result.slowest.ms} ms (${result.slowest.operationId})`,
    `  longest operations: ${slowOps}`,
    ...(notes.length > 0 ? [`  not failed (fast when re-sent): ${notes.join('; ')}`] : []),
  ].join('\n');
}

/**
 * The failure report: first each cause with the operations it breaks (fix it at the mechanism),
 * then one block per family with its minimal request and answer, and the replay command.
 */
export function failureReport(driver: string, result: RunResult): string {
  const families = result.families
    .filter(isFailure)
    .sort(
      (a, b) => a.operationId.localeCompare(b.operationId) || a.symptom.localeCompare(b.symptom),
    );
  const byCause = new Map<string, string[]>();
  for (const family of families) {
    const cause = family.causes.length > 0 ? family.causes.join(' + ') : 'a valid request';
    const where = `${family.operationId}${family.symptom === 'status 500' ? '' : ` (${family.symptom})`}`;
    byCause.set(cause, [...(byCause.get(cause) ?? []), where]);
  }
  const lines = [
    `${families.length} failure families on ${driver} (seed ${result.seed}); replay an operation's ` +
      `cases with FUZZ_SEED=${result.seed} FUZZ_OPS=<operationId> FUZZ_DRIVERS=${driver} npm run fuzz`,
    '',
    'By cause (status 500 unless said):',
    ...[...byCause].map(([cause, where]) => `  ${cause} -> ${where.join(', ')}`),
    '',
    'Minimal cases:',
  ];
  for (const family of families.slice(0, MAX_FAMILIES_SHOWN)) lines.push(...block(family));
  if (families.length > MAX_FAMILIES_SHOWN) {
    lines.push(`... and ${families.length - MAX_FAMILIES_SHOWN} more families`);
  }
  return lines.join('\n');
}

function block(family: Family): string[] {
  const { rendered, response, fuzzCase } = family.minimal;
  const credential =
    rendered.headers['x-api-key'] !== undefined
      ? 'x-api-key'
      : rendered.headers.authorization
        ? 'bearer'
        : 'no credentials';
  const trigger = family.trigger.length > 0 ? family.trigger.join(' + ') : 'a valid request';
  const flags = family.intermittent ? ', intermittent: not shrunk' : '';
  const body = rendered.body
    ? ` ${rendered.headers['content-type']} ${clip(printable(rendered.body.toString('utf8')), 160)}`
    : '';
  const answer = printable(response.text || response.transportError || '');
  return [
    `[${family.operationId}] ${family.symptom} (${family.count} cases${flags}) <- ${trigger}`,
    ...(family.also.length > 0 ? [`  also: ${clip(family.also.join('; '), 200)}`] : []),
    `  ${rendered.method} ${clip(rendered.url, 160)} (${credential}; case #${fuzzCase.index})${body}`,
    `  -> ${response.status} in ${response.ms} ms: ${clip(answer, 200)}`,
  ];
}

/** Control characters and lone surrogates shown as escapes, so each line stays one line. */
/* eslint-disable no-control-regex -- control characters are what it escapes */
const UNPRINTABLE =
  /[\u0000-\u001f\u007f\u202e]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** Past-the-door share below which an operation's cases prove nothing (credentials broken...). */
const MIN_REACHED = 0.25;

/**
 * A run whose cases never got past authentication or the throttles would pass vacuously: each
 * operation must have most cases answered by something other than 401 or 429.
 */
export function coverageProblems(result: RunResult): string[] {
  return Object.entries(result.stats).flatMap(([operationId, stats]) => {
    // 401 is the handler's own answer on login; on secured operations it is the door
    const stopped = (stats.secured ? (stats.byStatus[401] ?? 0) : 0) + (stats.byStatus[429] ?? 0);
    const reached = (stats.cases - stopped) / Math.max(stats.cases, 1);
    return reached < MIN_REACHED
      ? [
          `[${operationId}] coverage: only ${Math.round(reached * 100)}% of ${stats.cases} cases ` +
            `got past 401/429 (${JSON.stringify(stats.byStatus)})`,
        ]
      : [];
  });
}
