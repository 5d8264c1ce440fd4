import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AnsweredCall } from '../fakes/http-fake';
import { MediaStreamCaller } from '../fakes/media-stream-caller';
import { callerAudio, VOICE_FIXTURES_DIR } from '../support/caller-utterances';
import type { CallScenario } from './chaos-scenarios';

/** Speech no recogniser makes words of. */
const MUMBLE = readFileSync(path.join(VOICE_FIXTURES_DIR, 'sandbox-1-hello.ulaw'));
/** The longest a call of the run may last at the caller's side before it is taken as stuck. */
const CALL_BOUND_MS = 120_000;
/** Agent audio that stopped for this long has finished a reply (the caller may talk). */
const REPLY_PAUSE_MS = 800;

/** One answered call as the callee's side lived it: when each side was heard. */
export interface StreamTimeline {
  scenario: CallScenario;
  /** performance.now() of the stream's start message. */
  startedAt: number;
  /** When the call was over for the caller: hung up, cut, or the agent's hang-up seen. */
  endedAt: number;
  /** Arrival of each 20 ms agent frame. */
  agentFrames: number[];
  /** Intervals in which the caller spoke. */
  callerSpeech: Array<[number, number]>;
  /** The stream was never connected (the answer carried no stream, or it was refused). */
  noStream?: string;
  /** Why the call ended at the caller's side. */
  end: 'caller hung up' | 'agent hung up' | 'socket closed' | 'caller cut' | 'stuck';
}

/**
 * Plays the callee of one answered call through the fake provider's `conversation` hook: the
 * media stream the answer named, the behaviour the scenario drew, until one side ends the call.
 * Resolving lets the fake send its final callback (as a provider does when the call ends).
 */
export async function playCallee(
  call: AnsweredCall,
  scenario: CallScenario,
): Promise<StreamTimeline> {
  const timeline: StreamTimeline = {
    scenario,
    startedAt: performance.now(),
    endedAt: 0,
    agentFrames: [],
    callerSpeech: [],
    end: 'stuck',
  };
  let stream;
  try {
    stream = await call.stream();
  } catch (error) {
    timeline.noStream = error instanceof Error ? error.message : String(error);
    timeline.endedAt = performance.now();
    return timeline;
  }
  const caller = await MediaStreamCaller.connect(call.integration, stream.url, {
    keepMessages: false,
  }).catch((error: unknown) => {
    timeline.noStream = error instanceof Error ? error.message : String(error);
    return undefined;
  });
  if (!caller) {
    timeline.endedAt = performance.now();
    return timeline;
  }
  caller.start(stream.callId ?? call.callId, stream.token);
  timeline.startedAt = caller.startedAt;
  const over = () => caller.closeCode !== undefined || call.hangupRequested();
  const speak = async (audio: Buffer) => {
    if (over()) return;
    const { startedAt, endedAt } = await caller.play(audio, 600);
    timeline.callerSpeech.push([startedAt, endedAt]);
  };
  try {
    // The line's silence, as providers stream it from the start.
    await caller.play(Buffer.alloc(0), 100);
    switch (scenario.caller) {
      case 'talk':
        await untilReplyPause(caller, over);
        await speak(callerAudio('opening-hours'));
        await untilReplyPause(caller, over);
        await speak(callerAudio('no-thank-you'));
        await untilReplyPause(caller, over);
        break;
      case 'mumble':
        await untilReplyPause(caller, over);
        await speak(MUMBLE);
        await until(over, CALL_BOUND_MS);
        break;
      case 'silent':
        await until(over, CALL_BOUND_MS);
        break;
      case 'quiet':
        await untilReplyPause(caller, over);
        caller.goQuiet();
        await until(over, CALL_BOUND_MS);
        break;
      case 'cut':
        await untilReplyPause(caller, over);
        caller.close();
        timeline.end = 'caller cut';
        break;
      case 'hangUpEarly':
        await until(() => caller.frames.length > 5 || over(), 10_000);
        break;
    }
  } finally {
    if (timeline.end !== 'caller cut') {
      timeline.end = call.hangupRequested()
        ? 'agent hung up'
        : caller.closeCode !== undefined
          ? 'socket closed'
          : over()
            ? 'agent hung up'
            : 'caller hung up';
      if (timeline.end === 'caller hung up') caller.hangUp();
    }
    timeline.endedAt = performance.now();
    timeline.agentFrames = caller.frames.map((frame) => frame.at);
  }
  return timeline;
}

/** Until the agent has spoken and then been quiet for REPLY_PAUSE_MS, or the call is over. */
async function untilReplyPause(caller: MediaStreamCaller, over: () => boolean): Promise<void> {
  const heard = caller.frames.length;
  await until(() => {
    if (over()) return true;
    const last = caller.frames.at(-1);
    return (
      caller.frames.length > heard &&
      last !== undefined &&
      performance.now() - last.at > REPLY_PAUSE_MS
    );
  }, 30_000);
}

async function until(done: () => boolean, boundMs: number): Promise<void> {
  const deadline = performance.now() + boundMs;
  while (!done() && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * The longest stretch the callee heard neither the agent nor themselves, from the stream's start
 * to the call's end at their side: the dead air of the call.
 */
export function longestDeadAir(timeline: StreamTimeline): number {
  const audible: Array<[number, number]> = [
    ...timeline.agentFrames.map((at): [number, number] => [at - 20, at]),
    ...timeline.callerSpeech,
  ].sort((a, b) => a[0] - b[0]);
  let longest = 0;
  let heardUntil = timeline.startedAt;
  for (const [from, to] of audible) {
    if (from > heardUntil) longest = Math.max(longest, from - heardUntil);
    heardUntil = Math.max(heardUntil, to);
  }
  return Math.max(longest, timeline.endedAt - heardUntil);
}
