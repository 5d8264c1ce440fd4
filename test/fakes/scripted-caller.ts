import { performance } from 'node:perf_hooks';
import type { AnsweredCall } from './http-fake';
import { MediaStreamCaller } from './media-stream-caller';

const FRAME_BYTES = 160;
const FRAME_MS = 20;
const ULAW_SILENCE = 0xff;

export interface ScriptedCallerOptions {
  /** What the caller says, in order: μ-law 8 kHz recordings, each after the agent has spoken. */
  lines: Buffer[];
  /** Agent silence that means it has finished speaking (default 1,200 ms). */
  quietMs?: number;
  /** Longest wait for the agent to speak, and for it to hang up after the last line (30 s). */
  answerTimeoutMs?: number;
  /** Told when the caller starts each line (index into `lines`). */
  onLine?: (index: number) => void;
}

/** Both sides of a scripted call: what each side sent, when (ms from the stream's start). */
export interface CallRecording {
  caller: Array<{ at: number; audio: Buffer }>;
  agent: Array<{ at: number; audio: Buffer }>;
  /** Whether the agent ended the call (closed the stream) rather than the caller. */
  agentHungUp: boolean;
}

/**
 * The person who picks up, for a fake provider's `conversation`: opens the call's media stream
 * as the answer instructions say and keeps a line open like a phone does, a 20 ms frame every
 * 20 ms (silence between lines). After the agent's greeting, and after each reply, it says its
 * next line; after the last it waits for the agent to hang up, then hangs up itself.
 */
export async function scriptedCall(
  call: AnsweredCall,
  options: ScriptedCallerOptions,
): Promise<CallRecording> {
  const quietMs = options.quietMs ?? 1_200;
  const timeoutMs = options.answerTimeoutMs ?? 30_000;
  const { url, token, callId } = await call.stream();
  const caller = await MediaStreamCaller.connect(call.integration, url);
  const line = new PacedLine(caller);
  const recording: CallRecording = { caller: line.sent, agent: [], agentHungUp: false };
  let hungUp = false;
  void caller.closed.then(() => (hungUp = true));
  caller.start(callId ?? call.callId, token);
  line.start();
  try {
    for (const [index, audio] of options.lines.entries()) {
      if (!(await agentSpokeAndStopped(caller, () => hungUp, quietMs, timeoutMs))) break;
      options.onLine?.(index);
      await line.say(audio);
    }
    await waitUntil(() => hungUp || call.hangupRequested(), timeoutMs);
    recording.agentHungUp = hungUp || call.hangupRequested();
  } finally {
    line.stop();
    caller.close();
    const startedAt = caller.startedAt;
    recording.agent = caller.frames.map(({ at, audio }) => ({ at: at - startedAt, audio }));
  }
  return recording;
}

/** Waits for agent audio after the current frame count, then for `quietMs` without any. */
async function agentSpokeAndStopped(
  caller: MediaStreamCaller,
  hungUp: () => boolean,
  quietMs: number,
  timeoutMs: number,
): Promise<boolean> {
  const before = caller.frames.length;
  const spoke = await waitUntil(() => hungUp() || caller.frames.length > before, timeoutMs);
  if (!spoke || hungUp()) return false;
  return waitUntil(
    () => hungUp() || performance.now() - (caller.frames.at(-1)?.at ?? 0) >= quietMs,
    timeoutMs,
  ).then((quiet) => quiet && !hungUp());
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
  }
  return true;
}

/** The caller's side of the line: one frame per 20 ms, the queued speech or silence. */
class PacedLine {
  readonly sent: Array<{ at: number; audio: Buffer }> = [];
  private queue: Buffer[] = [];
  private drained?: () => void;
  private timer?: NodeJS.Timeout;
  private chunk = 0;
  private startedAt = 0;

  constructor(private readonly caller: MediaStreamCaller) {}

  start(): void {
    this.startedAt = performance.now();
    this.tick();
  }

  /** Queues `audio` as frames and resolves once the last one went out. */
  say(audio: Buffer): Promise<void> {
    for (let at = 0; at < audio.length; at += FRAME_BYTES) {
      const frame = Buffer.alloc(FRAME_BYTES, ULAW_SILENCE);
      audio.copy(frame, 0, at, Math.min(at + FRAME_BYTES, audio.length));
      this.queue.push(frame);
    }
    return new Promise((resolve) => (this.drained = resolve));
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.drained?.();
  }

  private tick(): void {
    const speech = this.queue.shift();
    const frame = speech ?? Buffer.alloc(FRAME_BYTES, ULAW_SILENCE);
    const at = performance.now() - this.startedAt;
    try {
      this.caller.sendAudio(frame, this.chunk);
    } catch {
      return; // the socket is gone: the call is over
    }
    if (speech) this.sent.push({ at, audio: speech });
    if (speech && this.queue.length === 0) this.drained?.();
    this.chunk += 1;
    // Against the clock, not the previous tick: late timers do not add up to drift.
    const due = this.startedAt + this.chunk * FRAME_MS;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - performance.now()));
  }
}
