import {
  type CallFlowCommand,
  type CallFlowEvent,
  type CallFlowState,
  type CallPhase,
  DEAD_AIR_BOUND_MS,
  deadlineOf,
  DEFAULT_FLOW_TIMING,
  initialFlow,
  step,
} from './call-flow';

/** One of each event, with the payloads that lead to different places. */
const EVENTS: CallFlowEvent[] = [
  { type: 'opened', plan: 'converse', interruptible: true },
  { type: 'opened', plan: 'converse', interruptible: false },
  { type: 'opened', plan: 'converse', interruptible: true, calleeFirstMs: 3_000 },
  { type: 'opened', plan: 'greet', interruptible: true },
  { type: 'opened', plan: 'resume', interruptible: true },
  { type: 'opened', plan: 'voicemail', interruptible: true },
  { type: 'opened', plan: 'noMessage', interruptible: true },
  { type: 'opened', plan: 'silent', interruptible: true },
  { type: 'refused' },
  { type: 'progress', aheadMs: 0 },
  { type: 'progress', aheadMs: 2_000 },
  { type: 'speechStarted' },
  { type: 'speechEnded' },
  { type: 'bargeIn' },
  { type: 'holding' },
  { type: 'turn', words: true },
  { type: 'turn', words: false },
  { type: 'greeted' },
  { type: 'replyStarted' },
  { type: 'replyDone', outcome: 'answered' },
  { type: 'replyDone', outcome: 'empty' },
  { type: 'replyDone', outcome: 'endCall' },
  { type: 'replyDone', outcome: 'optOut' },
  { type: 'replyDone', outcome: 'transfer' },
  { type: 'replyDone', outcome: 'collectDigits' },
  { type: 'key' },
  { type: 'lineDone' },
  { type: 'failed', dependency: 'llm' },
  { type: 'failed', dependency: 'tts' },
  { type: 'transferAccepted' },
  { type: 'transferDone', transferred: true },
  { type: 'transferDone', transferred: false },
  { type: 'machine' },
  { type: 'machine', message: false },
  { type: 'voicemailDone' },
  { type: 'timeUp' },
  { type: 'drain' },
  { type: 'hungUp' },
  { type: 'streamStopped' },
  { type: 'mediaLost' },
  { type: 'deadline' },
];

const PHASES: CallPhase[] = [
  'opening',
  'awaitingCallee',
  'greeting',
  'listening',
  'thinking',
  'speaking',
  'paused',
  'collectingDigits',
  'transferring',
  'leavingVoicemail',
  'ending',
  'handedOff',
  'ended',
];

/** Every state the machine can reach from the start, for both kinds of agent. */
function reachable(): CallFlowState[] {
  const seen = new Map<string, CallFlowState>();
  const queue = [initialFlow({ interruptible: true }), initialFlow({ interruptible: false })];
  while (queue.length > 0) {
    const state = queue.shift()!;
    const key = JSON.stringify(state);
    if (seen.has(key)) continue;
    seen.set(key, state);
    for (const event of EVENTS) queue.push(step(state, event).state);
  }
  return [...seen.values()];
}

const states = reachable();

/** Commands after which the caller hears the agent, or no longer has a call to wait on. */
const HEARD_OR_GONE: ReadonlySet<CallFlowCommand['do']> = new Set([
  'say',
  'greet',
  'resume',
  'hangUp',
  'close',
  'leave',
  'leaveVoicemail',
]);

/**
 * Phases where silence from the agent is not dead air: the stream is not the caller's yet
 * (opening ends in a close), another party or a machine has the call, or the provider rings the
 * transfer's new party (the caller hears its ringback).
 */
const NOT_DEAD_AIR = (state: CallFlowState) =>
  state.phase === 'leavingVoicemail' ||
  state.phase === 'handedOff' ||
  state.phase === 'ended' ||
  (state.phase === 'transferring' && state.transferAccepted);

describe('CallFlow, the live call state machine', () => {
  it('reaches every phase', () => {
    expect(new Set(states.map((state) => state.phase))).toEqual(new Set(PHASES));
    expect(states.length).toBeGreaterThan(100);
  });

  it('has a deadline in every state but the end', () => {
    for (const state of states) {
      const deadline = deadlineOf(state, DEFAULT_FLOW_TIMING);
      if (state.phase === 'ended') expect(deadline).toBeNull();
      else expect(deadline).toBeGreaterThan(0);
    }
  });

  it('answers every event in every state, and never leaves the end', () => {
    for (const state of states) {
      for (const event of EVENTS) {
        const next = step(state, event);
        expect(PHASES).toContain(next.state.phase);
        if (state.phase === 'ended') expect(next).toEqual({ state, commands: [], rearm: false });
      }
    }
  });

  it('from any state with a silent caller, makes the agent heard or ends the call within the dead-air bound', () => {
    let walked = 0;
    for (const start of states) {
      if (start.callerSpeaking || NOT_DEAD_AIR(start)) continue;
      // Worst case: nothing of the agent's audio is queued, so its silence starts now.
      let state: CallFlowState = { ...start, aheadMs: 0 };
      let silentMs = 0;
      let steps = 0;
      for (;;) {
        silentMs += deadlineOf(state, DEFAULT_FLOW_TIMING) ?? 0;
        const next = step(state, { type: 'deadline' });
        steps += 1;
        if (next.commands.some((command) => HEARD_OR_GONE.has(command.do))) break;
        if (NOT_DEAD_AIR(next.state)) break;
        state = next.state;
        if (steps > 10) throw new Error(`no end to the silence from ${JSON.stringify(start)}`);
      }
      if (silentMs > DEAD_AIR_BOUND_MS)
        throw new Error(`${silentMs} ms of dead air from ${JSON.stringify(start)}`);
      walked += 1;
    }
    expect(walked).toBeGreaterThan(50);
  });

  it('ends every state in `ended` by deadlines alone, hanging up where the call may still be up', () => {
    for (const start of states) {
      let state = start;
      const commands: CallFlowCommand[] = [];
      for (let i = 0; i < 12 && state.phase !== 'ended'; i += 1) {
        const next = step(state, { type: 'deadline' });
        commands.push(...next.commands);
        // Lines and replies come to an end, as a stalled one does by its own deadline.
        state = next.state;
      }
      expect(state.phase).toBe('ended');
      const mayBeUp = !['opening', 'handedOff', 'ended'].includes(start.phase);
      if (mayBeUp && !start.ending.hungUp && !commands.some((command) => command.do === 'hangUp'))
        throw new Error(`no hang-up from ${JSON.stringify(start)}`);
    }
  });

  describe('walks', () => {
    const run = (state: CallFlowState, ...events: CallFlowEvent[]) => {
      const commands: CallFlowCommand[][] = [];
      for (const event of events) {
        const next = step(state, event);
        commands.push(next.commands);
        state = next.state;
      }
      return { state, commands: commands.flat() };
    };
    const conversing = (interruptible = true) =>
      run(initialFlow(), { type: 'opened', plan: 'converse', interruptible }, { type: 'greeted' })
        .state;

    it('callee first: greets once their first words end, hearing them without answering', () => {
      const opened = {
        type: 'opened',
        plan: 'converse',
        interruptible: true,
        calleeFirstMs: 3_000,
      } as const;
      const waiting = step(initialFlow(), opened);
      expect(waiting.state.phase).toBe('awaitingCallee');
      expect(waiting.commands).toEqual([]);
      expect(deadlineOf(waiting.state, DEFAULT_FLOW_TIMING)).toBe(3_000);
      const { state, commands } = run(
        waiting.state,
        { type: 'speechStarted' },
        { type: 'speechEnded' },
      );
      expect(state.phase).toBe('greeting');
      expect(commands).toEqual([{ do: 'greet', afterCallee: true }]);
    });

    it('callee first: a silent callee is greeted at the cap; one still talking is let finish', () => {
      const opened = {
        type: 'opened',
        plan: 'converse',
        interruptible: true,
        calleeFirstMs: 2_000,
      } as const;
      const silent = run(initialFlow(), opened, { type: 'deadline' });
      expect(silent.state.phase).toBe('greeting');
      expect(silent.commands).toEqual([{ do: 'greet' }]);
      const talking = run(initialFlow(), opened, { type: 'speechStarted' }, { type: 'deadline' });
      expect(talking.state.phase).toBe('awaitingCallee');
      expect(talking.commands).toEqual([]);
      expect(step(talking.state, { type: 'deadline' }).commands).toEqual([{ do: 'greet' }]);
    });

    it('back from a transfer no one answered: says so instead of greeting, then listens', () => {
      const opened = step(initialFlow(), { type: 'opened', plan: 'resume', interruptible: true });
      expect(opened.state).toMatchObject({ phase: 'speaking', speaking: 'line', converse: true });
      expect(opened.commands).toEqual([{ do: 'say', line: 'transferFailed' }]);
      const heard = step(opened.state, { type: 'lineDone' });
      expect(heard.state.phase).toBe('listening');
      // The caller talks over it: answered after it, like any line.
      const asked = run(opened.state, { type: 'turn', words: true }, { type: 'lineDone' });
      expect(asked.state.phase).toBe('thinking');
      expect(asked.commands).toEqual([{ do: 'reply' }]);
    });

    it('a machine that takes no message (a full mailbox, a fax) is hung up on, even while a message waits for its beep', () => {
      const live = step(conversing(), { type: 'machine', message: false });
      expect(live.state.phase).toBe('ending');
      expect(live.commands).toEqual([{ do: 'hangUp', endedBy: 'voicemail' }]);
      const waiting = step(conversing(), { type: 'machine' });
      expect(waiting.state.phase).toBe('leavingVoicemail');
      const fax = step(waiting.state, { type: 'machine', message: false });
      expect(fax.commands).toEqual([{ do: 'hangUp', endedBy: 'voicemail' }]);
      // Known before the stream opened: hung up on at the opening, ended as on a machine.
      const early = step(initialFlow(), { type: 'opened', plan: 'noMessage', interruptible: true });
      expect(early.commands).toEqual([{ do: 'hangUp', endedBy: 'voicemail' }]);
    });

    it('a cough after the greeting: back to listening, the silence clock started again', () => {
      const after = step(step(conversing(), { type: 'speechStarted' }).state, {
        type: 'speechEnded',
      });
      expect(after.state.phase).toBe('thinking');
      const verdict = step(after.state, { type: 'turn', words: false });
      expect(verdict.state.phase).toBe('listening');
      expect(verdict.rearm).toBe(true);
      expect(verdict.commands).toEqual([]);
    });

    it('a non-interruptible agent answers two turns during one reply once, after it', () => {
      const { state, commands } = run(
        conversing(false),
        { type: 'speechEnded' },
        { type: 'turn', words: true },
        { type: 'replyStarted' },
        { type: 'turn', words: true },
        { type: 'turn', words: true },
      );
      expect(commands).toEqual([{ do: 'reply' }]);
      expect(state.pendingTurn).toBe(true);
      const done = step(state, { type: 'replyDone', outcome: 'answered' });
      expect(done.commands).toEqual([{ do: 'reply' }]);
      expect(done.state.pendingTurn).toBe(false);
    });

    it('an interruptible agent gives way to a real turn and answers it', () => {
      const { commands } = run(
        conversing(),
        { type: 'turn', words: true },
        { type: 'replyStarted' },
        { type: 'bargeIn' },
        { type: 'turn', words: true },
      );
      expect(commands).toEqual([
        { do: 'reply' },
        { do: 'pause' },
        { do: 'interrupt' },
        { do: 'reply' },
      ]);
    });

    it('a pause whose verdict never comes resumes the reply once the caller is quiet', () => {
      const { state } = run(
        conversing(),
        { type: 'turn', words: true },
        { type: 'replyStarted' },
        { type: 'bargeIn' },
        { type: 'speechEnded' },
      );
      expect(state.phase).toBe('paused');
      expect(deadlineOf(state, DEFAULT_FLOW_TIMING)).toBe(DEFAULT_FLOW_TIMING.pausedMs);
      expect(step(state, { type: 'deadline' }).commands).toEqual([{ do: 'resume' }]);
    });

    it('a slow answer gets "one moment", then an apology and the hang-up naming the failure', () => {
      const { state, commands } = run(
        conversing(),
        { type: 'turn', words: true },
        { type: 'deadline' },
        { type: 'deadline' },
      );
      expect(commands).toEqual([
        { do: 'reply' },
        { do: 'say', line: 'holdOn' },
        { do: 'interrupt' },
        { do: 'say', line: 'serviceFailure' },
      ]);
      expect(step(state, { type: 'lineDone' }).commands).toEqual([
        { do: 'hangUp', endedBy: 'service_failure', dependency: undefined },
      ]);
    });

    it('a failed dependency ends the call with an apology, naming it', () => {
      const { commands } = run(
        conversing(),
        { type: 'turn', words: true },
        { type: 'failed', dependency: 'llm' },
        { type: 'lineDone' },
      );
      expect(commands.slice(-1)).toEqual([
        { do: 'hangUp', endedBy: 'service_failure', dependency: 'llm' },
      ]);
    });

    it('a socket that dies hangs up at the provider at once', () => {
      expect(step(conversing(), { type: 'mediaLost' }).commands).toEqual([
        { do: 'hangUp', endedBy: 'service_failure', dependency: 'media' },
        { do: 'close' },
      ]);
    });

    it('time up: the reply stops and the time-up line is said before the hang-up', () => {
      const { commands } = run(
        conversing(),
        { type: 'turn', words: true },
        { type: 'replyStarted' },
        { type: 'timeUp' },
        { type: 'lineDone' },
      );
      expect(commands.slice(1)).toEqual([
        { do: 'interrupt' },
        { do: 'say', line: 'timeUp' },
        { do: 'hangUp', endedBy: 'max_duration', dependency: undefined },
      ]);
    });

    it('a greeting that never starts playing is a speech failure', () => {
      const { state, commands } = run(
        initialFlow({ interruptible: true }),
        { type: 'opened', plan: 'converse', interruptible: true },
        { type: 'deadline' },
      );
      expect(commands).toEqual([
        { do: 'greet' },
        { do: 'interrupt' },
        { do: 'say', line: 'serviceFailure' },
      ]);
      expect(state.ending.dependency).toBe('tts');
    });
  });
});
