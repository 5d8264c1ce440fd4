import { DependencyFailure } from '../dependency-failure';
import { EngineCircuit, type EngineState } from './engine-circuit';
import type { EngineEvents, EngineRef } from './engine-events';
import { failover, type FailoverEngine, type FailoverPolicy } from './failover';

/** An engine error as the speech and chat clients throw them. */
class ServiceError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

const HANG = Symbol('hang');
type Step = string | Error | typeof HANG;

/** An engine whose tries play `tries` in order: each a list of outputs, errors or a hang. */
function engine(
  name: string,
  role: EngineRef['role'],
  tries: Step[][],
  circuit = new EngineCircuit({ failures: 3, coolDownMs: 60_000 }),
): FailoverEngine<string> & { runs: number } {
  const fake = {
    ref: { dependency: 'tts' as const, role, engine: name },
    circuit,
    runs: 0,
    async *run(signal: AbortSignal): AsyncIterable<string> {
      const steps = tries[fake.runs++] ?? tries.at(-1) ?? [];
      for (const step of steps) {
        if (step === HANG) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          return;
        }
        if (step instanceof Error) throw step;
        yield step;
      }
    },
  };
  return fake;
}

function recorder(): EngineEvents & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    state: (ref, state: EngineState) => log.push(`${ref.role} ${state}`),
    failure: (ref) => log.push(`${ref.role} failure`),
    retry: (ref) => log.push(`${ref.role} retry`),
    fallback: (ref) => log.push(`${ref.role} fallback`),
    exhausted: (dependency) => log.push(`${dependency} exhausted`),
  };
}

async function run(
  engines: FailoverEngine<string>[],
  policy: Partial<FailoverPolicy> = {},
  signal?: AbortSignal,
): Promise<{ out: string[]; error?: unknown; ms: number }> {
  const started = performance.now();
  const out: string[] = [];
  try {
    const work = failover(
      engines,
      {
        dependency: 'tts',
        deadlineMs: 400,
        afterOutput: 'fallback',
        events: recorder(),
        ...policy,
      },
      signal,
    );
    for await (const item of work) out.push(item);
    return { out, ms: performance.now() - started };
  } catch (error) {
    return { out, error, ms: performance.now() - started };
  }
}

const transient = () => new ServiceError('speech answered HTTP 503', true);
const refused = () => new ServiceError('speech refused the API key (HTTP 401)', false);

describe('failover', () => {
  it('passes the output of an engine that works', async () => {
    const primary = engine('openai', 'primary', [['a', 'b']]);
    expect(await run([primary])).toMatchObject({ out: ['a', 'b'] });
    expect(primary.circuit.state).toBe('ok');
  });

  it('retries a transient failure once on the same engine', async () => {
    const events = recorder();
    const primary = engine('openai', 'primary', [[transient()], ['a']]);
    const fallback = engine('offline', 'fallback', [['f']]);
    expect(await run([primary, fallback], { events })).toMatchObject({ out: ['a'] });
    expect(primary.runs).toBe(2);
    expect(fallback.runs).toBe(0);
    expect(events.log).toEqual(['primary failure', 'primary retry']);
  });

  it('honours a short Retry-After, and goes to the fallback when it is too long for the deadline', async () => {
    const short = engine('openai', 'primary', [[new ServiceError('429', true, 100)], ['a']]);
    const { out, ms } = await run([short, engine('offline', 'fallback', [['f']])], {
      deadlineMs: 1_000,
    });
    expect(out).toEqual(['a']);
    expect(ms).toBeGreaterThanOrEqual(95);
    const long = engine('openai', 'primary', [[new ServiceError('429', true, 5_000)], ['a']]);
    const fallback = engine('offline', 'fallback', [['f']]);
    const result = await run([long, fallback], { deadlineMs: 1_000 });
    expect(result.out).toEqual(['f']);
    expect(result.ms).toBeLessThan(100);
    expect(long.runs).toBe(1);
  });

  it('does not retry a refusal: the fallback serves at once', async () => {
    const events = recorder();
    const primary = engine('openai', 'primary', [[refused()]]);
    const fallback = engine('offline', 'fallback', [['f']]);
    expect(await run([primary, fallback], { events })).toMatchObject({ out: ['f'] });
    expect(primary.runs).toBe(1);
    expect(events.log).toEqual(['primary failure', 'primary fallback']);
  });

  it('gives a hung primary half of the deadline and the fallback the rest', async () => {
    const primary = engine('openai', 'primary', [[HANG]]);
    const fallback = engine('offline', 'fallback', [['f']]);
    const { out, ms } = await run([primary, fallback], { deadlineMs: 400 });
    expect(out).toEqual(['f']);
    expect(ms).toBeGreaterThanOrEqual(195);
    expect(ms).toBeLessThan(380);
  });

  it('throws one DependencyFailure by the deadline when every engine fails', async () => {
    const events = recorder();
    const { error, ms } = await run(
      [engine('openai', 'primary', [[HANG]]), engine('offline', 'fallback', [[HANG]])],
      { deadlineMs: 300, events, dependency: 'stt' },
    );
    expect(error).toBeInstanceOf(DependencyFailure);
    expect((error as DependencyFailure).dependency).toBe('stt');
    expect((error as Error).message).toMatch(
      /^speech recognition failed: openai \(primary\): no answer within 15\d ms; offline \(fallback\): no answer within 1\d\d ms$/,
    );
    expect(ms).toBeLessThan(300 + 50);
    expect(events.log.at(-1)).toBe('stt exhausted');
  });

  it('restarts the work on the fallback after a mid-stream failure, or gives up at once', async () => {
    const primary = () => engine('elevenlabs', 'primary', [['a', transient()]]);
    const fallback = engine('offline', 'fallback', [['f1', 'f2']]);
    expect(await run([primary(), fallback])).toMatchObject({ out: ['a', 'f1', 'f2'] });
    const llm = await run([primary(), engine('offline', 'fallback', [['f']])], {
      afterOutput: 'fail',
    });
    expect(llm.out).toEqual(['a']);
    expect(llm.error).toBeInstanceOf(DependencyFailure);
  });

  it('bounds a stream that stalls after its first output', async () => {
    const primary = engine('openai', 'primary', [['a', HANG]]);
    const { out, error, ms } = await run([primary], { idleMs: 100, afterOutput: 'fail' });
    expect(out).toEqual(['a']);
    expect(error).toBeInstanceOf(DependencyFailure);
    expect(ms).toBeLessThan(250);
  });

  it("counts only the engine's time: a slow reader of the output trips no deadline", async () => {
    const primary = engine('openai', 'primary', [['a', 'b', 'c']]);
    const out: string[] = [];
    const work = failover([primary], {
      dependency: 'tts',
      deadlineMs: 100,
      idleMs: 100,
      afterOutput: 'fail',
      events: recorder(),
    });
    for await (const item of work) {
      out.push(item);
      // The session paces the audio out: it asks for the next chunk when it has room.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(out).toEqual(['a', 'b', 'c']);
  });

  it('ends quietly on the caller abort, counting no failure', async () => {
    const controller = new AbortController();
    const events = recorder();
    const primary = engine('openai', 'primary', [[HANG]]);
    setTimeout(() => controller.abort(), 20);
    const result = await run([primary], { events }, controller.signal);
    expect(result.out).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.ms).toBeLessThan(150);
    expect(events.log).toEqual([]);
    expect(primary.circuit.state).toBe('ok');
  });

  it('opens the circuit after repeated failures, skips the engine, then probes it after the cool-down', async () => {
    let now = 0;
    const circuit = new EngineCircuit({ failures: 2, coolDownMs: 1_000 }, undefined, () => now);
    const primary = engine('deepgram', 'primary', [[refused()]], circuit);
    const fallback = engine('offline', 'fallback', [['f']]);
    await run([primary, fallback]);
    expect(circuit.state).toBe('failing');
    await run([primary, fallback]);
    expect(circuit.state).toBe('open');
    expect(primary.runs).toBe(2);
    // Open: skipped, so the turn costs nothing of the primary's time.
    expect(await run([primary, fallback])).toMatchObject({ out: ['f'] });
    expect(primary.runs).toBe(2);
    now = 1_000;
    // The probe fails: open again for another cool-down.
    await run([primary, fallback]);
    expect(primary.runs).toBe(3);
    expect(circuit.state).toBe('open');
    now = 2_000;
    const healed = engine('deepgram', 'primary', [['p']], circuit);
    expect(await run([healed, fallback])).toMatchObject({ out: ['p'] });
    expect(circuit.state).toBe('ok');
  });

  it('still tries an engine with its circuit open when no other can take the work', async () => {
    const circuit = new EngineCircuit({ failures: 1, coolDownMs: 60_000 });
    circuit.failed();
    const alone = await run([engine('openai', 'primary', [['a']], circuit)]);
    expect(alone.out).toEqual(['a']);
    // Its answer closes the circuit, cool-down or not.
    expect(circuit.state).toBe('ok');
    const open = () => {
      const each = new EngineCircuit({ failures: 1, coolDownMs: 60_000 });
      each.failed();
      return each;
    };
    // Both open: the primary is tried (the fallback could not take over), then the fallback.
    const primary = engine('openai', 'primary', [[refused()]], open());
    const fallback = engine('offline', 'fallback', [['f']], open());
    expect(await run([primary, fallback])).toMatchObject({ out: ['f'] });
    expect(primary.runs).toBe(1);
  });
});

describe('EngineCircuit', () => {
  it('lets one probe through once the cool-down has passed, and reports each state once', () => {
    let now = 0;
    const states: EngineState[] = [];
    const circuit = new EngineCircuit(
      { failures: 1, coolDownMs: 100 },
      (state) => states.push(state),
      () => now,
    );
    circuit.failed();
    expect(circuit.take()).toBe(false);
    now = 100;
    expect(circuit.take()).toBe(true);
    expect(circuit.take()).toBe(false);
    circuit.released();
    expect(circuit.take()).toBe(true);
    circuit.succeeded();
    circuit.succeeded();
    expect(states).toEqual(['open', 'ok']);
  });
});
