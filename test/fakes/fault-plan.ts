import type { Fault } from './faults';
import type { HttpFake } from './http-fake';

/**
 * Faults for the telephony fakes written as text, for `npm run sandbox -- --faults=…` (and
 * tests): comma-separated steps, each `name:arg:arg`. Placement faults hit the fakes' call
 * creation requests; callback faults the status callbacks they send (an event is the provider's
 * own word: Twilio/Plivo `CallStatus`, Telnyx `event_type`; none: any callback).
 *
 *   rate-limit:N[:retryAfterSeconds]   the next N placements answer 429
 *   fail:N:status                      the next N placements answer that status
 *   stall:N                            the next N placements are never answered
 *   refuse:seconds                     connections refused (ECONNREFUSED) for that long
 *   lose:N[:event]                     the next N callbacks are never sent
 *   duplicate:N[:event]                the next N callbacks are sent twice
 *   delay:N:ms[:event]                 the next N callbacks are sent ms late
 *   reorder:hold:until                 a `hold` callback is sent after the call's `until` one
 *
 *
 * The model's faults (the sandbox's `--talk`, whose stand-in model is the chat fake) start with
 * `model-` and hit its next requests:
 *
 *   model-fail:N:status                the next N requests answer that status
 *   model-hang:N                       the next N requests are never answered
 *   model-slow:N:ms                    the next N requests answer ms late
 *   model-cut:N:bytes                  the next N answers stop after that many bytes
 *
 * e.g. `rate-limit:3:20,lose:1:call.hangup,reorder:call.answered:call.hangup,model-hang:1`.
 */
export type FaultStep = (fake: HttpFake) => void;

// The placement request of each provider: Plivo `POST …/Call/`, Twilio `…/Calls.json`, Telnyx `/v2/calls`.
const PLACEMENTS = { method: 'POST', path: /\/(Call\/|Calls\.json|v2\/calls)$/ };

export function parseFaultPlan(spec: string): FaultStep[] {
  return steps(spec)
    .filter((step) => !step.startsWith('model-'))
    .map(parseStep);
}

/** The plan's `model-` steps, for the chat fake's Faults: each fault with how many it hits. */
export function parseModelFaults(spec: string): Array<{ fault: Fault; count: number }> {
  return steps(spec)
    .filter((step) => step.startsWith('model-'))
    .map((step) => {
      const [name, ...args] = step.split(':');
      const n = (at: number, what: string) => {
        const value = Number(args[at]);
        if (!Number.isInteger(value) || value < 1)
          throw new Error(`fault "${step}": ${what} expected`);
        return value;
      };
      const count = n(0, 'a count');
      switch (name) {
        case 'model-fail':
          return { fault: { kind: 'status', status: n(1, 'a status') }, count };
        case 'model-hang':
          return { fault: { kind: 'hang' }, count };
        case 'model-slow':
          return { fault: { kind: 'latency', ms: n(1, 'milliseconds') }, count };
        case 'model-cut':
          return { fault: { kind: 'cut', afterBytes: n(1, 'bytes') }, count };
        default:
          throw new Error(`unknown fault "${name}" (see test/fakes/fault-plan.ts)`);
      }
    });
}

function steps(spec: string): string[] {
  return spec
    .split(',')
    .map((step) => step.trim())
    .filter(Boolean);
}

/** Switches the plan's faults on at each fake (a fake ignores callback faults of events it never sends). */
export function applyFaultPlan(fakes: HttpFake[], steps: FaultStep[]): void {
  for (const fake of fakes) for (const step of steps) step(fake);
}

function parseStep(step: string): FaultStep {
  const [name, ...args] = step.split(':');
  const number = (at: number, what: string): number => {
    const n = Number(args[at]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`fault "${step}": ${what} expected`);
    return n;
  };
  const event = (at: number) => (args[at] ? { event: args[at] } : {});
  switch (name) {
    case 'rate-limit': {
      const [n, retryAfter] = [number(0, 'a count'), args[1] ? number(1, 'seconds') : undefined];
      return (fake) => fake.rateLimitNext(n, retryAfter, PLACEMENTS);
    }
    case 'fail': {
      const [n, status] = [number(0, 'a count'), number(1, 'a status')];
      return (fake) => fake.failNext(n, status, PLACEMENTS);
    }
    case 'stall': {
      const n = number(0, 'a count');
      return (fake) => fake.stallNext(n, PLACEMENTS);
    }
    case 'refuse': {
      const ms = number(0, 'seconds') * 1000;
      return (fake) => void refuseFor(fake, ms);
    }
    case 'lose': {
      const n = number(0, 'a count');
      return (fake) => fake.loseCallbacks(n, event(1));
    }
    case 'duplicate': {
      const n = number(0, 'a count');
      return (fake) => fake.duplicateCallbacks(n, event(1));
    }
    case 'delay': {
      const [n, ms] = [number(0, 'a count'), number(1, 'milliseconds')];
      return (fake) => fake.delayCallbacks(n, ms, event(2));
    }
    case 'reorder': {
      const [hold, until] = args;
      if (!hold || !until) throw new Error(`fault "${step}": reorder:hold:until expected`);
      return (fake) => fake.reorderCallbacks({ event: hold }, { event: until });
    }
    default:
      throw new Error(`unknown fault "${name}" (see test/fakes/fault-plan.ts)`);
  }
}

async function refuseFor(fake: HttpFake, ms: number): Promise<void> {
  await fake.refuseConnections();
  await new Promise((resolve) => setTimeout(resolve, ms).unref());
  await fake.acceptConnections();
}
