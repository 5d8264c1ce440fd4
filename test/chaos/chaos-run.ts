import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { DEAD_AIR_BOUND_MS } from '../../src/modules/voice/session/call-flow';
import type { Fault } from '../fakes/faults';
import type { AnsweredCall, HttpFake } from '../fakes/http-fake';
import { longestDeadAir, playCallee, type StreamTimeline } from './chaos-callers';
import { type CallScenario, drawScenarios, faulted, modelReplies } from './chaos-scenarios';
import { ChaosWorld } from './chaos-world';
import { SeededRandom } from './seeded-random';

export interface ChaosOptions {
  seed: number;
  calls: number;
  /** The share of each dimension (answer, caller, model, provider requests) that is faulted. */
  faultRate: number;
  /** Longest wait for every call to reach its final status once dialing is done. */
  settleMs?: number;
}

export interface ChaosReport {
  seed: number;
  calls: number;
  faultRate: number;
  faultedCalls: number;
  /** Attempts that reached a final status, of all attempts placed. */
  attemptsEnded: number;
  attempts: number;
  /** Records closed (completed, failed, canceled, do_not_call), of all. */
  recordsClosed: number;
  streams: number;
  deadAirP50Ms: number;
  deadAirP100Ms: number;
  /** Server CPU seconds per call placed. */
  cpuSecondsPerCall: number;
  wallSeconds: number;
  serverExited: boolean;
  violations: string[];
}

/** Slack over DEAD_AIR_BOUND_MS for what the measurement adds (sockets, timers of this process). */
const MEASUREMENT_SLACK_MS = 1_500;

/**
 * One chaos run (issue #28): calls dialed through the real service while faults drawn from the
 * seed hit every dependency (the telephony providers' requests and callbacks, the chat model,
 * the callee's stream), a number put on the DNC list and a batch cancelled mid-run. Answers the
 * broken invariants: the server process exited; a call did not reach its final status in time;
 * a callee heard dead air longer than the bound; a provider request went out for an attempt that
 * was cancelled or on the DNC list by then; a refusal that placed nothing spent an attempt;
 * events out of order, or call.started after a call's final event.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const random = new SeededRandom(options.seed);
  const scenarios = drawScenarios(random, options.calls, options.faultRate);
  const byNumber = new Map(scenarios.map((scenario) => [scenario.phoneNumber, scenario]));
  const world = await ChaosWorld.start();
  const started = performance.now();
  const violations: string[] = [];
  const timelines: StreamTimeline[] = [];
  const callees: Array<Promise<void>> = [];
  try {
    const { agentId, phones } = await world.setUp({
      greeting: 'Hello, this is Ada.',
      maxCallSeconds: 45,
    });
    for (const scenario of scenarios) {
      world.chat.replyTo(scenario.contactName, ...modelReplies(scenario.model));
    }
    for (const [integration, account] of Object.entries(world.providers) as Array<
      [Integration, (typeof world.providers)[Integration]]
    >) {
      const fake = account.fake;
      fake.autoProgress = (to) => byNumber.get(to)?.answer ?? 'completed';
      fake.conversation = (call: AnsweredCall) => {
        const scenario = byNumber.get(calleeOf(world, integration, call.callId));
        if (!scenario) return Promise.resolve();
        const played = playCallee(call, scenario).then((timeline) => {
          timelines.push(timeline);
        });
        callees.push(played);
        return played;
      };
      applyProviderFaults(fake, random, options.faultRate, scenarios.length);
    }
    // A share of every request to the speech service and the model fails, hangs, is cut or slow.
    world.speech.faults.drawnBy(() => dependencyFault(random, options.faultRate));
    world.chat.faults.drawnBy(() => dependencyFault(random, options.faultRate / 2));
    const cpuBefore = cpuSeconds(world.server.child.pid);
    const batches = await createBatches(world, scenarios, agentId, phones);
    // Mid-run (in a faulted run): a contact not yet dialed goes on the DNC list, a batch is
    // cancelled.
    const faults = options.faultRate > 0;
    const listed = faults ? await listMidRun(world, scenarios, random) : null;
    const cancelled = faults ? await cancelMidRun(world, batches, random) : null;
    await waitForDialing(world, batches, options.settleMs ?? 150_000);
    await Promise.all(callees);
    await Promise.all(world.fakes.map((fake) => fake.settled()));
    await waitForEnded(world, options.settleMs ?? 150_000, violations);
    const cpu = cpuSeconds(world.server.child.pid) - cpuBefore;

    if (world.exit) violations.push(`the server exited: ${JSON.stringify(world.exit)}`);
    for (const timeline of timelines) {
      const deadAir = longestDeadAir(timeline);
      if (deadAir > DEAD_AIR_BOUND_MS + MEASUREMENT_SLACK_MS)
        violations.push(
          `${describe(timeline.scenario)}: ${Math.round(deadAir)} ms of dead air (${timeline.end})`,
        );
    }
    violations.push(...(await recordsLeftOpen(world)));
    violations.push(...(await dialedAfterStop(world, listed, cancelled)));
    violations.push(...(await attemptsSpentOnRefusals(world)));
    violations.push(...(await eventsOutOfOrder(world)));
    const attempts = await counts(world);
    const deadAirs = timelines.map(longestDeadAir).sort((a, b) => a - b);
    return {
      seed: options.seed,
      calls: options.calls,
      faultRate: options.faultRate,
      faultedCalls: scenarios.filter(faulted).length,
      ...attempts,
      streams: timelines.length,
      deadAirP50Ms: Math.round(deadAirs[Math.floor(deadAirs.length / 2)] ?? 0),
      deadAirP100Ms: Math.round(deadAirs.at(-1) ?? 0),
      cpuSecondsPerCall: attempts.attempts > 0 ? cpu / attempts.attempts : 0,
      wallSeconds: (performance.now() - started) / 1000,
      serverExited: world.exit !== null,
      violations,
    };
  } finally {
    await world.close();
  }
}

const describe = (scenario: CallScenario) =>
  `call ${scenario.index} (${scenario.provider}, ${scenario.caller}, model ${scenario.model})`;

function calleeOf(world: ChaosWorld, integration: Integration, callId: string): string {
  const to =
    integration === 'provider_one'
      ? world.plivo.call(callId).to
      : integration === 'provider_two'
        ? world.twilio.call(callId).to
        : world.telnyx.call(callId).to;
  return to.startsWith('+') ? to : `+${to}`;
}

/** Placement refusals that prove nothing was placed (429), and callbacks sent twice or late. */
function applyProviderFaults(
  fake: HttpFake,
  random: SeededRandom,
  faultRate: number,
  calls: number,
): void {
  const perProvider = Math.max(1, Math.round(calls / 3));
  const placements = { method: 'POST', path: /\/(Call\/|Calls\.json|v2\/calls)$/ };
  const limited = Math.round(perProvider * faultRate * random.next());
  if (limited > 0) fake.rateLimitNext(limited, 1, placements);
  const duplicated = Math.round(perProvider * faultRate * random.next());
  if (duplicated > 0) fake.duplicateCallbacks(duplicated);
  const delayed = Math.round(perProvider * faultRate * random.next());
  if (delayed > 0) fake.delayCallbacks(delayed, random.between(200, 1_500));
  // A moment where the provider refuses every connection: placements (which then spend
  // nothing), hang-ups and lookups all fail; a call placed meanwhile is dialed again later.
  if (random.chance(faultRate)) {
    const at = random.between(0, 4_000);
    const forMs = random.between(500, 1_500);
    setTimeout(() => {
      void fake
        .refuseConnections()
        .then(() => new Promise((resolve) => setTimeout(resolve, forMs)))
        .then(() => fake.acceptConnections())
        .catch(() => undefined);
    }, at).unref();
  }
}

/** The fault one request to the speech service or the model meets, drawn; mostly none. */
function dependencyFault(random: SeededRandom, rate: number): Fault | undefined {
  if (!random.chance(rate)) return undefined;
  const faults: Fault[] = [
    { kind: 'status', status: 500 },
    { kind: 'status', status: 503 },
    { kind: 'status', status: 429, retryAfterSeconds: 1 },
    { kind: 'latency', ms: random.between(500, 2_500) },
    { kind: 'hang' },
    { kind: 'cut', afterBytes: random.between(200, 4_000) },
  ];
  return random.pick(faults);
}

/** One batch per provider, its contacts those of the scenarios on that provider. */
async function createBatches(
  world: ChaosWorld,
  scenarios: CallScenario[],
  agentId: string,
  phones: Record<Integration, string>,
): Promise<Array<{ id: string; provider: Integration }>> {
  const batches: Array<{ id: string; provider: Integration }> = [];
  for (const provider of Object.keys(phones) as Integration[]) {
    const contacts = scenarios
      .filter((scenario) => scenario.provider === provider)
      .map((scenario) => ({ phoneNumber: scenario.phoneNumber, name: scenario.contactName }));
    if (contacts.length === 0) continue;
    const batchId = await world.api<string>('POST', '/api/call/createBatch', {
      batchName: `Chaos ${provider}`,
      callingNumbers: [phones[provider]],
      agentId,
      enforceCalleeLocalHours: false,
      retry: 1,
      delay: 2,
      contacts,
    });
    batches.push({ id: batchId, provider });
  }
  return batches;
}

/**
 * One of the last contacts goes on the DNC list while the run dials (written as an opt-out
 * taken elsewhere would be: the API adds numbers of calls already made, by their requestUUID).
 */
async function listMidRun(
  world: ChaosWorld,
  scenarios: CallScenario[],
  random: SeededRandom,
): Promise<{ number: string; at: Date } | null> {
  const target = scenarios.at(-1 - random.between(0, 2));
  if (!target) return null;
  await world.db.query(
    `INSERT INTO dnc_entries (id, organization_id, phone_number, type)
     SELECT $1, id, $2, 'chaos' FROM organizations`,
    [randomBytes(12).toString('hex'), target.phoneNumber],
  );
  return { number: target.phoneNumber, at: new Date() };
}

/** One batch cancelled a moment after dialing began (its live calls go on; nothing new is dialed). */
async function cancelMidRun(
  world: ChaosWorld,
  batches: Array<{ id: string; provider: Integration }>,
  random: SeededRandom,
): Promise<{ batchId: string; at: Date } | null> {
  const batch = random.pick(batches);
  if (!batch) return null;
  await new Promise((resolve) => setTimeout(resolve, random.between(500, 2_500)));
  await world.api('POST', `/api/call/batches/${batch.id}/cancel`);
  return { batchId: batch.id, at: new Date() };
}

async function waitForDialing(
  world: ChaosWorld,
  batches: Array<{ id: string }>,
  boundMs: number,
): Promise<void> {
  const deadline = performance.now() + boundMs;
  for (;;) {
    const { rows } = await world.db.query<{ open: string }>(
      `SELECT count(*) AS open FROM batches WHERE id = ANY($1) AND queue_status = 'active'`,
      [batches.map((batch) => batch.id)],
    );
    if (Number(rows[0].open) === 0 || performance.now() > deadline || world.exit) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function waitForEnded(world: ChaosWorld, boundMs: number, violations: string[]) {
  const deadline = performance.now() + boundMs;
  for (;;) {
    const { rows } = await world.db.query<{ id: string; call_status: string }>(
      `SELECT id, call_status FROM phone_logs
       WHERE call_status IN ('queued', 'ringing', 'in-progress')`,
    );
    if (rows.length === 0) return;
    if (performance.now() > deadline || world.exit) {
      violations.push(
        `${rows.length} attempts never reached a final status: ${rows
          .slice(0, 5)
          .map((row) => `${row.id} ${row.call_status}`)
          .join(', ')}`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Every contact's calling is over: none still pending or in progress once dialing is done. */
async function recordsLeftOpen(world: ChaosWorld): Promise<string[]> {
  const { rows } = await world.db.query<{
    phone_number: string;
    status: string;
    attempts: number;
    next_attempt_at: Date | null;
    queue_status: string;
    status_reason: string | null;
  }>(
    `SELECT record.phone_number, record.status, record.attempts, record.next_attempt_at,
       batch.queue_status, batch.paused_reason AS status_reason
     FROM call_records record JOIN batches batch ON batch.id = record.batch_id
     WHERE record.status IN ('pending', 'in_progress')`,
  );
  return rows.map(
    (row) =>
      `${row.phone_number} left ${row.status} (attempts ${row.attempts}, next ${row.next_attempt_at?.toISOString() ?? 'none'}, batch ${row.queue_status} ${row.status_reason ?? ''})`,
  );
}

/**
 * No provider request for an attempt whose batch was cancelled, or whose number was on the DNC
 * list, when the dial check ran (placing_at: the statement that checks both and marks it).
 */
async function dialedAfterStop(
  world: ChaosWorld,
  listed: { number: string; at: Date } | null,
  cancelled: { batchId: string; at: Date } | null,
): Promise<string[]> {
  const found: string[] = [];
  if (listed) {
    const { rows } = await world.db.query(
      `SELECT log.id FROM phone_logs log JOIN call_records record ON record.id = log.call_record_id
       WHERE record.phone_number = $1 AND log.placing_at > $2`,
      [listed.number, listed.at],
    );
    for (const row of rows) found.push(`attempt ${String(row.id)} dialed a number on the DNC list`);
  }
  if (cancelled) {
    const { rows } = await world.db.query(
      `SELECT id FROM phone_logs WHERE batch_id = $1 AND placing_at > $2`,
      [cancelled.batchId, cancelled.at],
    );
    for (const row of rows)
      found.push(`attempt ${String(row.id)} dialed after its batch was cancelled`);
  }
  return found;
}

/**
 * Every attempt a record counts was placed: a 429 or a refused connection (which placed nothing)
 * gave its claim back unspent. The one exception is an answer lost mid-request (a connection cut
 * while the provider read it): the provider may have acted, so the attempt is spent and ends
 * `placement_unknown`, never dialed again. Per number, the fakes' accepted placements must be at
 * most the attempts counted, and those at most the placements plus such unknowns.
 */
async function attemptsSpentOnRefusals(world: ChaosWorld): Promise<string[]> {
  const placed = new Map<string, number>();
  const count = (to: string) => {
    const number = to.startsWith('+') ? to : `+${to}`;
    placed.set(number, (placed.get(number) ?? 0) + 1);
  };
  for (const call of world.twilio.calls) count(call.to);
  for (const call of world.plivo.calls) count(call.to);
  for (const call of world.telnyx.calls) count(call.to);
  const { rows } = await world.db.query<{
    phone_number: string;
    attempts: number;
    unknown: string;
  }>(
    `SELECT record.phone_number, record.attempts,
       (SELECT count(*) FROM phone_logs log
        WHERE log.call_record_id = record.id AND log.ended_reason = 'placement_unknown') AS unknown
     FROM call_records record`,
  );
  return rows
    .filter((row) => {
      const accepted = placed.get(row.phone_number) ?? 0;
      return row.attempts < accepted || row.attempts > accepted + Number(row.unknown);
    })
    .map(
      (row) =>
        `${row.phone_number}: ${row.attempts} attempts counted, ${placed.get(row.phone_number) ?? 0} placed, ${row.unknown} placement_unknown`,
    );
}

const FINAL_EVENTS = new Set(['call.completed', 'call.failed']);

/** Per call: sequences 1, 2, 3… and nothing but the post-call events after a final one. */
async function eventsOutOfOrder(world: ChaosWorld): Promise<string[]> {
  const { rows } = await world.db.query<{ call_id: string; type: string; sequence: number }>(
    `SELECT call_id, type, sequence FROM events WHERE call_id IS NOT NULL
     ORDER BY call_id, sequence`,
  );
  const found: string[] = [];
  const byCall = new Map<string, Array<{ type: string; sequence: number }>>();
  for (const row of rows) byCall.set(row.call_id, [...(byCall.get(row.call_id) ?? []), row]);
  for (const [callId, events] of byCall) {
    events.forEach((event, i) => {
      if (event.sequence !== i + 1)
        found.push(`${callId}: event ${i + 1} has sequence ${event.sequence}`);
    });
    const final = events.findIndex((event) => FINAL_EVENTS.has(event.type));
    if (final === -1) continue;
    const after = events.slice(final + 1).map((event) => event.type);
    if (
      after.some(
        (type) => type === 'call.started' || type === 'call.answered' || FINAL_EVENTS.has(type),
      )
    )
      found.push(`${callId}: ${after.join(', ')} after ${events[final].type}`);
  }
  return found;
}

async function counts(world: ChaosWorld) {
  const { rows } = await world.db.query<{
    attempts: string;
    ended: string;
    records: string;
    closed: string;
  }>(
    `SELECT
       (SELECT count(*) FROM phone_logs) AS attempts,
       (SELECT count(*) FROM phone_logs WHERE call_status NOT IN ('queued', 'ringing', 'in-progress')) AS ended,
       (SELECT count(*) FROM call_records) AS records,
       (SELECT count(*) FROM call_records WHERE status NOT IN ('pending', 'in_progress')) AS closed`,
  );
  const [row] = rows;
  return {
    attempts: Number(row.attempts),
    attemptsEnded: Number(row.ended),
    recordsClosed: Number(row.closed),
  };
}

/** The process's CPU time (user + system), in seconds. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const stat = (require('node:fs') as typeof import('node:fs'))
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(stat[11]) + Number(stat[12])) / 100;
  } catch {
    return 0;
  }
}
