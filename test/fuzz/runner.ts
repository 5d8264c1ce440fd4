import { CaseGenerator } from './case-generator';
import { applyMutations, type FuzzCase, type Mutation } from './fuzz-case';
import type { FuzzTarget } from './fuzz-target';
import { type FuzzResponse, type Rendered, render, send } from './http-client';
import type { Operation } from './openapi-model';
import { judge } from './oracle';
import { SchemaValues } from './schema-values';

export interface RunOptions {
  seed: number;
  casesPerOperation: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** A request with no answer after this long is cut off (and reported as slow). */
  requestTimeoutMs: number;
}

export interface Outcome {
  fuzzCase: FuzzCase;
  rendered: Rendered;
  response: FuzzResponse;
  problems: string[];
}

/** A distinct failure: an operation, a symptom and the mutations that still cause it. */
export interface Family {
  operationId: string;
  symptom: string;
  /** What the minimal case's mutations did (see causeOf); empty when a valid request fails. */
  causes: string[];
  /** Labels of the mutations of the minimal case. */
  trigger: string[];
  /** Other minimal triggers with the same causes (other fields or parameters). */
  also: string[];
  /** Cases of the run with this operation and symptom (all families of the group). */
  count: number;
  /** The case did not fail again when re-sent as it was: not shrunk. */
  intermittent: boolean;
  minimal: Outcome;
}

export interface OperationStats {
  cases: number;
  secured: boolean;
  byStatus: Record<number, number>;
  /** Wall time of the operation's cases and shrinking. */
  ms: number;
}

export interface RunResult {
  seed: number;
  cases: number;
  serverErrors: number;
  slowest: { operationId: string; ms: number };
  stats: Record<string, OperationStats>;
  families: Family[];
  durationMs: number;
}

/** Per-operation seed: adding an operation never changes another operation's cases. */
export function operationSeed(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (const char of operationId) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/** Runs `casesPerOperation` cases against every operation, then shrinks each failure group. */
export async function runFuzz(
  target: FuzzTarget,
  operations: Operation[],
  options: RunOptions,
): Promise<RunResult> {
  const started = performance.now();
  const generator = new CaseGenerator(
    new SchemaValues(target.ids),
    new SchemaValues(target.ids, true),
  );
  // deletions last, so the resources the other operations aim at live as long as possible
  const ordered = [...operations].sort(
    (a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'),
  );
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const outcomes: Outcome[] = [];
  const stats: Record<string, OperationStats> = {};
  let sequence = 0;
  const execute = async (fuzzCase: FuzzCase, mutations = fuzzCase.mutations) => {
    const operation = byId.get(fuzzCase.operationId)!;
    const request = applyMutations(fuzzCase.base, mutations);
    sequence += 1;
    const address = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
    const rendered = render(operation, request, target.credentials, address);
    const response = await send(target.baseUrl, rendered, options.requestTimeoutMs);
    return {
      fuzzCase: { ...fuzzCase, mutations },
      rendered,
      response,
      problems: judge(operation, rendered, response),
    };
  };

  const families: Family[] = [];
  for (const operation of ordered) {
    const opStarted = performance.now();
    const cases = generator.casesFor(
      operation,
      operationSeed(options.seed, operation.id),
      options.casesPerOperation,
    );
    const entry: OperationStats = {
      cases: cases.length,
      secured: operation.secured,
      byStatus: {},
      ms: 0,
    };
    stats[operation.id] = entry;
    const own: Outcome[] = [];
    await inPool(cases, options.concurrency, async (fuzzCase) => {
      const outcome = await execute(fuzzCase);
      entry.byStatus[outcome.response.status] = (entry.byStatus[outcome.response.status] ?? 0) + 1;
      own.push(outcome);
    });
    // shrunk now, while the resources this operation aims at still exist
    families.push(...(await shrinkFamilies(own, execute)));
    outcomes.push(...own);
    entry.ms = Math.round(performance.now() - opStarted);
  }

  const slowest = outcomes.reduce((a, b) => (b.response.ms > a.response.ms ? b : a), outcomes[0]);
  return {
    seed: options.seed,
    cases: outcomes.length,
    serverErrors: outcomes.filter((o) => o.response.status >= 500).length,
    slowest: { operationId: slowest?.fuzzCase.operationId ?? '', ms: slowest?.response.ms ?? 0 },
    stats,
    families,
    durationMs: Math.round(performance.now() - started),
  };
}

async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[(next += 1) - 1]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

const MAX_SHRINKS_PER_GROUP = 6;

/** What a mutation did, without where: `body.name ← NUL byte` and `query.q ← NUL byte` agree. */
export function causeOf(label: string): string {
  if (label.includes(' ← ')) return label.slice(label.indexOf(' ← ') + 3);
  return label
    .replace(/^query\.\S+ repeated/, 'repeated query parameter')
    .replace(/^query\.\S+ dropped/, 'query parameter dropped')
    .replace(/^body\.\S+ dropped \(required\)/, 'required field dropped');
}

const causesOf = (mutations: Mutation[]) =>
  [...new Set(mutations.map((m) => causeOf(m.label)))].sort();

/**
 * Groups failures by operation and symptom, and reduces the smallest cases of each group to the
 * mutations that still cause the symptom (one mutation dropped at a time, re-sent). A group
 * splits into families by cause; a case whose causes an earlier family already explains is not
 * shrunk again. A case that does not fail again when re-sent is marked intermittent.
 */
async function shrinkFamilies(
  outcomes: Outcome[],
  execute: (fuzzCase: FuzzCase, mutations: Mutation[]) => Promise<Outcome>,
): Promise<Family[]> {
  const groups = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    for (const symptom of outcome.problems) {
      const key = `${outcome.fuzzCase.operationId}\u0000${symptom}`;
      groups.set(key, [...(groups.get(key) ?? []), outcome]);
    }
  }
  const families: Family[] = [];
  for (const [key, members] of groups) {
    const [operationId, symptom] = key.split('\u0000');
    const explained: string[][] = [];
    let shrinks = 0;
    for (const candidate of [...members].sort((a, b) => size(a) - size(b))) {
      const causes = causesOf(candidate.fuzzCase.mutations);
      if (explained.some((known) => known.every((cause) => causes.includes(cause)))) continue;
      if (shrinks >= MAX_SHRINKS_PER_GROUP) break;
      shrinks += 1;
      const again = await execute(candidate.fuzzCase, candidate.fuzzCase.mutations);
      const intermittent = !again.problems.includes(symptom);
      let minimal = candidate;
      for (let i = minimal.fuzzCase.mutations.length - 1; i >= 0 && !intermittent; i -= 1) {
        const fewer = minimal.fuzzCase.mutations.filter((_, j) => j !== i);
        const retry = await execute(minimal.fuzzCase, fewer);
        if (retry.problems.includes(symptom)) minimal = retry;
      }
      const minimalCauses = causesOf(minimal.fuzzCase.mutations);
      explained.push(minimalCauses);
      const trigger = minimal.fuzzCase.mutations.map((m) => m.label);
      const same = families.find(
        (f) =>
          f.operationId === operationId &&
          f.symptom === symptom &&
          f.causes.join('\u0000') === minimalCauses.join('\u0000'),
      );
      if (same) {
        if (!same.also.includes(trigger.join(' + '))) same.also.push(trigger.join(' + '));
        continue;
      }
      families.push({
        operationId,
        symptom,
        causes: minimalCauses,
        trigger,
        also: [],
        count: members.length,
        intermittent,
        minimal,
      });
    }
  }
  return families;
}

function size(outcome: Outcome): number {
  return (
    outcome.fuzzCase.mutations.length * 100_000 +
    (outcome.rendered.body?.length ?? 0) +
    outcome.rendered.url.length
  );
}
