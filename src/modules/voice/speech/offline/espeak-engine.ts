import { type ChildProcess, spawn } from 'node:child_process';
import { ChunkQueue } from '../chunk-queue';
import { CommandError } from './child-process';
import type { EspeakEvent } from './espeak-word-timings';

/** The library of Debian's espeak-ng package (libespeak-ng1). */
export const ESPEAK_LIBRARY = 'libespeak-ng.so.1';
const ENGINE = 'eSpeak NG';

// A synthesis runs at hundreds of times real time: one not answered by then is stuck.
const SYNTHESIS_TIMEOUT_MS = 15_000;

export interface EspeakEngineOptions {
  /** The library loaded (tests name one that is missing). */
  library?: string;
  /** How long a synthesis may go unanswered before the process is killed as stuck. */
  timeoutMs?: number;
}

export interface EspeakRequest {
  text: string;
  voice: string;
  /** Spoken with when eSpeak NG does not know `voice` (as its command line does). */
  fallbackVoice: string;
  /** Speaking rate; eSpeak NG's own default (175) when undefined. */
  wordsPerMinute?: number;
}

/** A piece of one synthesis: 16-bit mono PCM at the engine's rate, and the events placed in it. */
export interface EspeakPiece {
  pcm: Int16Array;
  events: EspeakEvent[];
}

/**
 * The engine's own process: eSpeak NG's library through koffi, in synchronous mode, handing
 * back each 100 ms of audio with its word and clause events (the command line prints none).
 * A process of its own, not a thread: a crash of the library on some text fails the sentences
 * under way, not every call of the server. Kept as source text for the reason the VAD worker's
 * is (silero-worker.ts).
 */
const engineSource = (koffiPath: string, library: string) => `
const koffi = require(${JSON.stringify(koffiPath)});
const send = (message) => process.send(message);
process.on('disconnect', () => process.exit(0));
function main() {
  let lib;
  try {
    lib = koffi.load(${JSON.stringify(library)});
  } catch {
    return send({ kind: 'failed', missing: true, reason: ${JSON.stringify(`is not installed (${library})`)} });
  }
  const Event = koffi.struct('espeak_EVENT', {
    type: 'int', unique_identifier: 'uint', text_position: 'int', length: 'int',
    audio_position: 'int', sample: 'int', user_data: 'void *',
    id: koffi.union('espeak_EVENT_id', { number: 'int', name: 'const char *', string: koffi.array('char', 8) }),
  });
  const Callback = koffi.proto('int SynthCallback(int16_t *wav, int numsamples, espeak_EVENT *events)');
  const initialize = lib.func('int espeak_Initialize(int output, int buflength, const char *path, int options)');
  const setCallback = lib.func('void espeak_SetSynthCallback(SynthCallback *callback)');
  const setVoice = lib.func('int espeak_SetVoiceByName(const char *name)');
  const Voice = koffi.struct('espeak_VOICE', {
    name: 'const char *', languages: 'const char *', identifier: 'const char *',
    gender: 'uint8_t', age: 'uint8_t', variant: 'uint8_t', xx1: 'uint8_t', score: 'int', spare: 'void *',
  });
  const setVoiceByProperties = lib.func('int espeak_SetVoiceByProperties(espeak_VOICE *voice)');
  const currentVoice = lib.func('espeak_VOICE *espeak_GetCurrentVoice()');
  // As the command line does: a name no voice file has is a language ("en-gb" is spoken by
  // gmw/en), whose voice then takes the variant ("en-gb+f2").
  const selectVoice = (name) => {
    if (setVoice(name) === 0) return true;
    const [language, variant] = name.split('+');
    const wanted = { name: null, languages: language, identifier: null, gender: 0, age: 0, variant: 0, xx1: 0, score: 0, spare: null };
    if (setVoiceByProperties(wanted) !== 0) return false;
    if (variant === undefined) return true;
    const identifier = koffi.decode(currentVoice(), Voice).identifier;
    return setVoice(identifier.split('/').pop() + '+' + variant) === 0;
  };
  const setParameter = lib.func('int espeak_SetParameter(int parameter, int value, int relative)');
  const synth = lib.func('int espeak_Synth(const char *text, size_t size, uint position, int position_type, uint end_position, uint flags, void *unique_identifier, void *user_data)');
  // AUDIO_OUTPUT_SYNCHRONOUS: espeak_Synth returns once all is spoken, 100 ms at a time to the callback.
  const sampleRate = initialize(2, 100, null, 0);
  if (sampleRate <= 0) return send({ kind: 'failed', reason: 'did not start (' + sampleRate + ')' });
  const eventSize = koffi.sizeof(Event);
  let current;
  setCallback(koffi.register((wav, samples, events) => {
    const placed = [];
    for (let i = 0; ; i += 1) {
      const event = koffi.decode(events, i * eventSize, Event);
      if (event.type === 0) break;
      if (event.type === 1 || event.type === 5 || event.type === 6)
        placed.push(event.type, event.text_position, event.audio_position);
    }
    const pcm = wav && samples > 0 ? koffi.decode(wav, koffi.array('int16_t', samples)) : new Int16Array(0);
    send({ id: current, pcm, events: placed });
    return 0;
  }, koffi.pointer(Callback)));
  let voice;
  let rate;
  process.on('message', (request) => {
    current = request.id;
    if (request.voice !== voice) {
      if (!selectVoice(request.voice) && !selectVoice(request.fallbackVoice))
        return send({ id: request.id, done: true, error: 'knows neither voice' });
      voice = request.voice;
    }
    if (request.wordsPerMinute !== rate) {
      setParameter(1, request.wordsPerMinute ?? 175, 0); // espeakRATE
      rate = request.wordsPerMinute;
    }
    // espeakCHARS_UTF8 | espeakENDPAUSE (the pause the command line ends on); never
    // espeakPHONEMES, which would read [[...]] in a model's text as phonemes.
    const status = synth(request.text, Buffer.byteLength(request.text) + 1, 0, 1, 0, 0x1001, null, null);
    send({ id: request.id, done: true, error: status === 0 ? undefined : 'failed (' + status + ')' });
  });
  send({ kind: 'ready', sampleRate });
}
main();
`;

type EngineMessage =
  | { kind: 'ready'; sampleRate: number }
  | { kind: 'failed'; reason: string; missing?: boolean }
  | { id: number; pcm: Int16Array; events: number[] }
  | { id: number; done: true; error?: string };

interface Synthesis {
  pieces: ChunkQueue<EspeakPiece>;
  timer: NodeJS.Timeout;
  signal: AbortSignal;
  abort: () => void;
}

/** One eSpeak NG process, speaking one text at a time in the order asked. */
export class EspeakEngine {
  private readonly syntheses = new Map<number, Synthesis>();
  private nextId = 0;
  private failure?: CommandError;

  private constructor(
    private readonly child: ChildProcess,
    /** The rate of every piece's PCM (22,050 Hz for eSpeak NG's voices). */
    readonly sampleRate: number,
    private readonly timeoutMs: number,
  ) {
    // It exits when the server does (its channel closes); only a synthesis under way keeps the
    // server's process alive.
    this.keepAlive();
    child.on('message', (message: EngineMessage) => this.onMessage(message));
    child.once('exit', (code, signal) =>
      this.fail(new CommandError(ENGINE, `exited (${code ?? signal})`)),
    );
  }

  static start(options: EspeakEngineOptions = {}): Promise<EspeakEngine> {
    const source = engineSource(require.resolve('koffi'), options.library ?? ESPEAK_LIBRARY);
    const child = spawn(process.execPath, ['-e', source], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
    });
    return new Promise((resolve, reject) => {
      const gone = (reason: string) => {
        child.kill('SIGKILL');
        reject(new CommandError(ENGINE, reason));
      };
      child.once('error', () => gone('could not be started'));
      child.once('exit', (code, signal) => gone(`exited (${code ?? signal})`));
      child.once('message', (message: EngineMessage) => {
        if ('kind' in message && message.kind === 'ready')
          return resolve(
            new EspeakEngine(child, message.sampleRate, options.timeoutMs ?? SYNTHESIS_TIMEOUT_MS),
          );
        child.kill('SIGKILL');
        const failed = message as { reason?: string; missing?: boolean };
        reject(new CommandError(ENGINE, failed.reason ?? 'did not start', failed.missing));
      });
    });
  }

  /** The engine's process. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the process has died or was closed: start another. */
  get alive(): boolean {
    return this.failure === undefined;
  }

  /** The audio of `request`, piece by piece; ends early, quietly, when `signal` aborts. */
  speak(request: EspeakRequest, signal: AbortSignal): AsyncIterable<EspeakPiece> {
    const pieces = new ChunkQueue<EspeakPiece>();
    if (this.failure) {
      pieces.fail(this.failure);
      return pieces;
    }
    if (signal.aborted) {
      pieces.end();
      return pieces;
    }
    const id = (this.nextId += 1);
    const timer = setTimeout(() => {
      this.fail(new CommandError(ENGINE, 'timed out'));
      this.child.kill('SIGKILL');
    }, this.timeoutMs);
    const abort = () => this.settle(id);
    this.syntheses.set(id, { pieces, timer, signal, abort });
    this.keepAlive();
    signal.addEventListener('abort', abort, { once: true });
    this.child.send({ id, ...request }, (error) => {
      if (error) this.settle(id, new CommandError(ENGINE, 'is not answering'));
    });
    return pieces;
  }

  async close(): Promise<void> {
    this.fail(new CommandError(ENGINE, 'was closed'));
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }

  private onMessage(message: EngineMessage): void {
    if (!('id' in message)) return;
    const synthesis = this.syntheses.get(message.id);
    if (!synthesis) return; // aborted meanwhile
    if ('done' in message) {
      this.settle(message.id, message.error ? new CommandError(ENGINE, message.error) : undefined);
      return;
    }
    const events: EspeakEvent[] = [];
    for (let i = 0; i + 2 < message.events.length; i += 3) {
      const [type, textPosition, audioMs] = message.events.slice(i, i + 3);
      events.push({ type, textPosition, audioMs });
    }
    synthesis.pieces.push({ pcm: message.pcm, events });
  }

  private settle(id: number, error?: Error): void {
    const synthesis = this.syntheses.get(id);
    if (!synthesis) return;
    this.syntheses.delete(id);
    clearTimeout(synthesis.timer);
    synthesis.signal.removeEventListener('abort', synthesis.abort);
    this.keepAlive();
    if (error) synthesis.pieces.fail(error);
    else synthesis.pieces.end();
  }

  /** The process waits for the engine while a synthesis is under way, not otherwise. */
  private keepAlive(): void {
    if (this.syntheses.size > 0) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  /** Every synthesis under way fails with `error`, and so does every later one. */
  private fail(error: CommandError): void {
    this.failure ??= error;
    for (const id of [...this.syntheses.keys()]) this.settle(id, this.failure);
  }
}

let shared: Promise<EspeakEngine> | undefined;

/**
 * The process's eSpeak NG engine, started on first use and again after it died or failed to
 * start (not when the library is missing: that stays so until the machine changes).
 */
export async function espeakEngine(): Promise<EspeakEngine> {
  const starting = (shared ??= startShared());
  const engine = await starting;
  if (engine.alive) return engine;
  if (shared === starting) shared = startShared();
  return shared;
}

function startShared(): Promise<EspeakEngine> {
  const starting = EspeakEngine.start();
  starting.catch((error: unknown) => {
    if (shared === starting && !(error instanceof CommandError && error.missing))
      shared = undefined;
  });
  return starting;
}
