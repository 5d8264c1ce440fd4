import numberZones from '../../src/modules/dialer/calling-window/data/number-zones.json';
import { evaluateCallingWindow, type BatchWindow } from '../../src/modules/dialer/calling-window';
import { judgeCall, oracleCap, oracleZones } from './compliance-oracle';

/**
 * A compliance simulation at the rules level: a simulated clock walks from `from` to `until`
 * (jumping from one due call to the next, never sleeping), a placer decides for each due contact
 * whether to call now, and every placed call is judged by the independent compliance oracle.
 * The placer is a parameter so the real scheduler can be plugged into the same harness.
 */
export interface SimulatedContact {
  id: number;
  phoneNumber: string;
  timezone?: string;
  batch: BatchWindow;
  /** When the contact first becomes due (ms). */
  firstDueAt: number;
}

export interface PlacementRequest {
  contact: SimulatedContact;
  now: Date;
  /** Every call placed to this contact so far, oldest first. */
  previousCalls: Date[];
}

export type PlacementDecision = { place: true } | { place: false; retryAt: Date | null };
export type Placer = (request: PlacementRequest) => PlacementDecision | Promise<PlacementDecision>;

/** The placer that asks the calling-window rules, as the scheduler does. */
export const windowsPlacer: Placer = ({ contact, now, previousCalls }) => {
  const since = now.getTime() - 24 * 3_600_000;
  const decision = evaluateCallingWindow(
    contact.batch,
    {
      phoneNumber: contact.phoneNumber,
      timezone: contact.timezone,
      recentAttempts: previousCalls.filter((call) => call.getTime() > since),
    },
    now,
  );
  return decision.allowed ? { place: true } : { place: false, retryAt: decision.nextAllowedAt };
};

export interface SimulationOptions {
  contacts: SimulatedContact[];
  until: number;
  placer: Placer;
  /** Calls per contact at most (first call + retries). */
  maxAttempts?: number;
  /** Delay before a retry after an unanswered call, ms. */
  retryDelayMs?: { min: number; max: number };
  /** Share of placed calls that complete (no retry). */
  completionRate?: number;
  seed?: number;
  /** An offset change the run crosses (ms), to count the calls placed around it. */
  dstChangeAt?: number;
}

export interface SimulationReport {
  contacts: number;
  decisions: number;
  callsPlaced: number;
  illegalCalls: number;
  /** The first few illegal calls, for the failure message. */
  illegalExamples: string[];
  /** Calls over a state's 24-hour cap, counted apart from the oracle's verdict. */
  capExceeded: number;
  /** Refusals whose retry time was not after now (a scheduler would spin). */
  stuck: number;
  /** Contacts the rules said can never be called. */
  neverCallable: number;
  /** Calls by callee zone (the oracle's zones), to show coverage. */
  callsByZone: Map<string, number>;
  /** Calls placed within 12 h either side of `dstChangeAt`, when given. */
  callsNearDstChange: number;
  firstCallAt: number;
  lastCallAt: number;
  elapsedMs: number;
}

/** Deterministic 32-bit PRNG (mulberry32), so a failing run can be replayed by seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class MinHeap {
  private readonly times: number[] = [];
  private readonly ids: number[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, id: number): void {
    let i = this.times.length;
    this.times.push(time);
    this.ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent] <= time) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): [number, number] {
    const top: [number, number] = [this.times[0], this.ids[0]];
    const lastTime = this.times.pop() as number;
    const lastId = this.ids.pop() as number;
    if (this.times.length > 0) {
      this.times[0] = lastTime;
      this.ids[0] = lastId;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.times.length && this.times[left] < this.times[smallest]) smallest = left;
        if (right < this.times.length && this.times[right] < this.times[smallest]) smallest = right;
        if (smallest === i) break;
        this.swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b], this.times[a]];
    [this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
  }
}

export async function simulateCompliance(options: SimulationOptions): Promise<SimulationReport> {
  const {
    contacts,
    until,
    placer,
    maxAttempts = 6,
    retryDelayMs = { min: 5 * 60_000, max: 90 * 60_000 },
    completionRate = 0.3,
    seed = 1,
    dstChangeAt,
  } = options;
  const random = seededRandom(seed);
  const started = performance.now();
  const calls = contacts.map((): Date[] => []);
  const due = new MinHeap();
  for (const contact of contacts) due.push(contact.firstDueAt, contact.id);
  const report: SimulationReport = {
    contacts: contacts.length,
    decisions: 0,
    callsPlaced: 0,
    illegalCalls: 0,
    illegalExamples: [],
    capExceeded: 0,
    stuck: 0,
    neverCallable: 0,
    callsByZone: new Map(),
    callsNearDstChange: 0,
    firstCallAt: Infinity,
    lastCallAt: -Infinity,
    elapsedMs: 0,
  };
  let clock = -Infinity;
  while (due.size > 0) {
    const [time, id] = due.pop();
    if (time >= until) break;
    if (time < clock) throw new Error('the simulated clock went backwards');
    clock = time;
    const contact = contacts[id];
    const now = new Date(time);
    const decision = await placer({ contact, now, previousCalls: calls[id] });
    report.decisions += 1;
    if (!decision.place) {
      if (decision.retryAt === null) report.neverCallable += 1;
      else if (decision.retryAt.getTime() <= time) report.stuck += 1;
      else due.push(decision.retryAt.getTime(), id);
      continue;
    }
    judge(report, contact, now, calls[id]);
    if (dstChangeAt !== undefined && Math.abs(time - dstChangeAt) <= 12 * 3_600_000) {
      report.callsNearDstChange += 1;
    }
    calls[id].push(now);
    if (calls[id].length < maxAttempts && random() >= completionRate) {
      const delay = retryDelayMs.min + random() * (retryDelayMs.max - retryDelayMs.min);
      due.push(time + Math.round(delay), id);
    }
  }
  report.elapsedMs = performance.now() - started;
  return report;
}

function judge(report: SimulationReport, contact: SimulatedContact, now: Date, previous: Date[]) {
  report.callsPlaced += 1;
  report.firstCallAt = Math.min(report.firstCallAt, now.getTime());
  report.lastCallAt = Math.max(report.lastCallAt, now.getTime());
  const verdict = judgeCall({
    at: now,
    phoneNumber: contact.phoneNumber,
    contactTimezone: contact.timezone,
    batch: contact.batch,
    previousCalls: previous,
  });
  if (!verdict.legal) {
    report.illegalCalls += 1;
    if (report.illegalExamples.length < 5) {
      report.illegalExamples.push(
        `${now.toISOString()} ${contact.phoneNumber} tz=${contact.timezone ?? '-'} ` +
          `batch=${JSON.stringify(contact.batch)}: ${verdict.violations.join('; ')}`,
      );
    }
  }
  // The cap once more, by plain counting: calls in the 24 h up to and including this one.
  const cap = oracleCap(contact.phoneNumber);
  if (contact.batch.enforceCalleeLocalHours && cap !== null) {
    const since = now.getTime() - 24 * 3_600_000;
    if (previous.filter((call) => call.getTime() > since).length + 1 > cap) report.capExceeded += 1;
  }
  for (const zone of oracleZones(contact.phoneNumber, contact.timezone)) {
    report.callsByZone.set(zone, (report.callsByZone.get(zone) ?? 0) + 1);
  }
}

export const US_AREA_CODES = Object.keys(numberZones.usStates).filter(
  (areaCode) => (numberZones.nanpAreaCodes as Record<string, string[]>)[areaCode],
);
/** Zones of US area codes: every one the population covers. */
export const US_ZONES = [
  ...new Set(
    US_AREA_CODES.flatMap(
      (areaCode) => (numberZones.nanpAreaCodes as Record<string, string[]>)[areaCode],
    ),
  ),
].sort();

const NON_US_NUMBERS = [
  '+4420', // London
  '+4412', // UK geographic
  '+612', // Sydney
  '+618', // Perth / Adelaide
  '+4930', // Berlin (country zones)
  '+9198', // India
  '+813', // Tokyo
  '+1204', // Manitoba
  '+1416', // Toronto
  '+1604', // Vancouver (British Columbia: statutory holidays closed)
  '+1867', // the three territories (one area code)
  '+1787', // Puerto Rico
  '+1800', // toll-free: country zones
];
const CONTACT_ZONES = ['America/New_York', 'America/Los_Angeles', 'Europe/Madrid', 'Asia/Tokyo'];

/**
 * Batches that exercise the rules: office hours, whole days, windows crossing midnight in zones
 * that change offset at 02:00, and opted-out batches (only the batch window applies).
 */
export const SIMULATED_BATCHES: BatchWindow[] = [
  batch('America/New_York', '09:00', '20:00', [1, 2, 3, 4, 5, 6], true),
  batch('UTC', null, null, [0, 1, 2, 3, 4, 5, 6], true),
  batch('America/Los_Angeles', '21:00', '02:00', [0, 1, 2, 3, 4, 5, 6], false),
  batch('America/Chicago', '00:30', '03:00', [0, 1, 2, 3, 4, 5, 6], false),
  batch('Europe/London', '08:00', '21:00', [1, 2, 3, 4, 5], true),
  batch('Australia/Sydney', '10:00', '16:00', [0, 1, 2, 3, 4, 5, 6], true),
  batch('Pacific/Honolulu', '06:00', '22:00', [0, 1, 2, 3, 4, 5, 6], true),
  batch('America/Denver', null, null, [0, 6], true),
  batch('America/New_York', '20:30', '08:30', [0, 1, 2, 3, 4, 5, 6], true),
];

function batch(
  timezone: string,
  callingHourStart: string | null,
  callingHourEnd: string | null,
  allowedDays: number[],
  enforceCalleeLocalHours: boolean,
): BatchWindow {
  return { timezone, callingHourStart, callingHourEnd, allowedDays, enforceCalleeLocalHours };
}

/**
 * `count` contacts: most on US numbers cycling through every US area code (so every US zone and
 * every split area code), some abroad, some with a timezone field (valid or not), first due at a
 * random time in [from, from + spreadMs).
 */
export function makePopulation({
  count,
  from,
  spreadMs,
  seed = 7,
}: {
  count: number;
  from: number;
  spreadMs: number;
  seed?: number;
}): SimulatedContact[] {
  const random = seededRandom(seed);
  const digits = (length: number): string =>
    Array.from({ length }, (_, i) =>
      String(i === 0 ? 2 + Math.floor(random() * 8) : Math.floor(random() * 10)),
    ).join('');
  const contacts: SimulatedContact[] = [];
  for (let id = 0; id < count; id += 1) {
    let phoneNumber: string;
    if (id % 10 < 8) {
      phoneNumber = `+1${US_AREA_CODES[id % US_AREA_CODES.length]}${digits(7)}`;
    } else {
      const prefix = NON_US_NUMBERS[id % NON_US_NUMBERS.length];
      phoneNumber = `${prefix}${digits(prefix.startsWith('+1') ? 7 : 8)}`;
    }
    const roll = random();
    const timezone =
      roll < 0.04
        ? CONTACT_ZONES[Math.floor(random() * CONTACT_ZONES.length)]
        : roll < 0.05
          ? 'Not/AZone'
          : undefined;
    contacts.push({
      id,
      phoneNumber,
      timezone,
      batch: SIMULATED_BATCHES[Math.floor(random() * SIMULATED_BATCHES.length)],
      firstDueAt: from + Math.floor(random() * spreadMs),
    });
  }
  return contacts;
}
