import type { CallDependency } from '../../../common/dependency-failure';
import type { SessionEndedBy } from '../../call-records/call-records.schema';
import { TRANSFER_RING_SECONDS, WARM_BRIEF_SECONDS } from '../../telephony/telephony.types';

export type { SessionEndedBy };

/**
 * One live call as one state machine (docs/reliability.md, "A live call under faults"). Every
 * phase but `ended` has a deadline, and what happens when it passes is written here, so that from
 * any moment of a call the caller hears the agent, or the call is ended at the provider, within
 * DEAD_AIR_BOUND_MS. Pure: the session feeds it events and carries out the commands it returns;
 * the failures of those commands come back as events.
 */
export type CallPhase =
  /** The socket is open: its token and its call are being checked. */
  | 'opening'
  /**
   * The agent lets the callee speak first (`firstSpeaker: callee`): it greets once their first
   * words end, or when the wait's cap passes in silence.
   */
  | 'awaitingCallee'
  /** The greeting (the agent's first reply) is being synthesized or played. */
  | 'greeting'
  /** The agent waits for the caller. */
  | 'listening'
  /** The caller finished: their words are being recognised and answered, nothing plays yet. */
  | 'thinking'
  /** A reply, or one of the agent's own lines (`speaking` says which), is playing. */
  | 'speaking'
  /** The caller talks over a reply: its audio is cleared and the verdict awaited. */
  | 'paused'
  /**
   * The agent asked the caller to type a number (collect_digits): their keys are gathered, each
   * one giving them digitsMs more; the entry (or a spoken turn, or the pause) is then answered.
   */
  | 'collectingDigits'
  /** The provider is asked to take the call to another party. */
  | 'transferring'
  /** A machine answered: its beep is awaited, then the voicemail message plays. */
  | 'leavingVoicemail'
  /** Last words, then the hang-up at the provider, then the stream's end. */
  | 'ending'
  /** The call went to another party; the stream is left to the provider. */
  | 'handedOff'
  | 'ended';

/** The agent's own lines, outside the model's replies (conversation-phrases.ts). */
export type AgentLine =
  | 'stillThere'
  | 'holdOn'
  | 'apology'
  | 'transferFailed'
  | 'goodbye'
  | 'timeUp'
  | 'optOut'
  | 'serviceFailure'
  | 'draining';

/** What the call does once its socket proved which call it carries. */
export type OpeningPlan =
  /** The greeting, then the conversation with the model. */
  | 'converse'
  /** The greeting only (no model, or no agent to talk): then the hang-up. */
  | 'greet'
  /**
   * The conversation goes on on a new stream (a transfer no one answered gave the caller back):
   * the agent says the transfer failed, then listens.
   */
  | 'resume'
  /** A machine answered before the stream: the voicemail message after its beep. */
  | 'voicemail'
  /** One that takes no message (a fax) answered before the stream: hang up, as on a machine. */
  | 'noMessage'
  /** Nothing to say: hang up. */
  | 'silent';

/** How a reply ended: answered, or a tool the model called. */
export type ReplyOutcome =
  'answered' | 'empty' | 'endCall' | 'optOut' | 'transfer' | 'collectDigits';

export type CallFlowEvent =
  | {
      type: 'opened';
      plan: OpeningPlan;
      interruptible: boolean;
      /** The agent waits this long for the callee's first words before greeting (callee first). */
      calleeFirstMs?: number;
    }
  | { type: 'refused' }
  /** Agent audio went out or a mark came back: `aheadMs` of audio is still queued. */
  | { type: 'progress'; aheadMs: number }
  | { type: 'speechStarted' }
  | { type: 'speechEnded' }
  | { type: 'bargeIn' }
  /** The caller stopped mid-sentence: their words wait for the rest (a turn is still coming). */
  | { type: 'holding' }
  /** A caller turn was recognised: `words` false for nothing, noise or a backchannel. */
  | { type: 'turn'; words: boolean }
  /** The caller pressed a key while their digits are collected. */
  | { type: 'key' }
  /** The greeting played to its end. */
  | { type: 'greeted' }
  /** The reply's first audio was queued. */
  | { type: 'replyStarted' }
  | { type: 'replyDone'; outcome: ReplyOutcome }
  /** An agent line played to its end (its mark came back). */
  | { type: 'lineDone' }
  /** A dependency failed for good (its retries and fallback spent). */
  | { type: 'failed'; dependency: CallDependency }
  /** The provider accepted the transfer and rings the new party. */
  | { type: 'transferAccepted' }
  | { type: 'transferDone'; transferred: boolean }
  /**
   * A machine answered the call while it was live; `message` false: one that takes none (a
   * full mailbox, a fax; a menu or a screening assistant the agent is told to leave: `endedBy`
   * agent), hung up on at once.
   */
  | { type: 'machine'; message?: boolean; endedBy?: 'voicemail' | 'agent' }
  /** The voicemail message played to its end. */
  | { type: 'voicemailDone' }
  | { type: 'timeUp' }
  /** The process drains and its grace period has passed: the call must end now. */
  | { type: 'drain' }
  /** The provider answered the hang-up (or had ended the call already). */
  | { type: 'hungUp' }
  /** The provider ended the stream (`stop`): the call is over or has left the stream. */
  | { type: 'streamStopped' }
  /** The socket closed, or stopped carrying the caller, without the provider's `stop`. */
  | { type: 'mediaLost' }
  | { type: 'deadline' };

export type CallFlowCommand =
  /** `afterCallee`: the callee spoke first; their opening words are heard, not answered. */
  | { do: 'greet'; afterCallee?: boolean }
  /** Answer every caller turn not yet answered. */
  | { do: 'reply' }
  /** Drop the reply's audio at once and hold it until the verdict. */
  | { do: 'pause' }
  | { do: 'resume' }
  /** Stop the reply for good; what the caller heard of it is kept. */
  | { do: 'interrupt' }
  | { do: 'say'; line: AgentLine }
  | { do: 'transfer' }
  | { do: 'leaveVoicemail' }
  /** Record why the call ended, then end it at the provider. */
  | { do: 'hangUp'; endedBy: SessionEndedBy; dependency?: CallDependency }
  /** The call went to another party: stop talking and listening, leave the stream be. */
  | { do: 'leave' }
  /** End the stream without a hang-up (`refused`: it never proved its call). */
  | { do: 'close'; refused?: boolean };

export interface CallFlowState {
  readonly phase: CallPhase;
  /** A model answers the caller (else the greeting is all the agent says). */
  readonly converse: boolean;
  readonly interruptible: boolean;
  /** While `speaking` (or paused, or ending): a model's reply or one of the agent's lines. */
  readonly speaking: 'reply' | 'line' | null;
  /** Where a pause goes back to when the interruption was nothing. */
  readonly resumeTo: 'greeting' | 'speaking';
  readonly callerSpeaking: boolean;
  /** Words of an unfinished sentence wait for the rest. */
  readonly holding: boolean;
  /** A caller turn came that no reply under way answers: the next reply answers it. */
  readonly pendingTurn: boolean;
  /** A reply was asked for and has not started playing (thinking). */
  readonly replying: boolean;
  /** "Are you still there?" was said since the caller last spoke. */
  readonly reprompted: boolean;
  /** Thinking: the hold-on line was said for this reply. */
  readonly heldOn: boolean;
  readonly transferAccepted: boolean;
  /** Audio queued ahead of the caller's ear when it last progressed. */
  readonly aheadMs: number;
  /** Greeting: some of its audio has gone out. */
  readonly greetingAudible: boolean;
  /** Awaiting the callee: how long their first words are waited for. */
  readonly calleeFirstMs: number;
  /** Ending: why, and whether the provider was asked to hang up yet. */
  readonly ending: { endedBy: SessionEndedBy; dependency?: CallDependency; hungUp: boolean };
}

export interface CallFlowTiming {
  /** Opening: the token and the call checked (START_TIMEOUT_MS). */
  openMs: number;
  /**
   * Opening, the call known: the caller's first frame. A provider may start the stream before
   * its media path carries audio, and what is sent before is lost (a clipped greeting), so the
   * call begins on that frame; a stream with none by then begins all the same.
   */
  firstFrameMs: number;
  /** Greeting: its first audio (the first sentence's synthesis, with retry and fallback). */
  greetingMs: number;
  /** Listening: a silent caller is asked whether they are there, then said goodbye. */
  silenceMs: number;
  /**
   * Listening with words held mid-sentence: the caller's allowance to go on (TurnTracker's
   * unfinishedSilenceMs, 3 s) has passed and the held words never came as a turn.
   */
  holdingMs: number;
  /** Thinking: the caller finished and nothing plays yet; then "One moment, please." */
  thinkingMs: number;
  /** Thinking after the hold-on line: then the call ends as a service failure. */
  heldOnMs: number;
  /** A line, or the greeting, whose end never came back: taken as heard this long after its audio. */
  stallMs: number;
  /** Paused, the caller quiet again: no verdict by then, the reply resumes. */
  pausedMs: number;
  /**
   * Transferring: the provider has not accepted by then. Its request is bounded by 10 s; past this
   * the caller hears that it failed (a late acceptance still hands the call off).
   */
  transferRequestMs: number;
  /**
   * Transferring, accepted: the new party has not answered (or, warm, taken the call) by then.
   * A backstop: CallTransfers gives up first (TRANSFER_LEG_MS, plus the brief when warm).
   */
  transferLegMs: number;
  /** Collecting digits: the caller's pause (before the first key, or after the last) ends the entry. */
  digitsMs: number;
  /** Leaving voicemail: beep wait (BEEP_WAIT_MS) and the message. */
  voicemailMs: number;
  /** Ending: the last words have this long beyond their audio, then the hang-up. */
  endingMs: number;
  /** Hung up (or handed off): the provider ends the stream by then, else the session closes it. */
  closeMs: number;
  /**
   * Not a phase's deadline but the session's watch on the stream: every provider streams the
   * caller's track continuously, silence included (a 20 ms message at a time), so a stream that
   * carried nothing for this long is dead or half-open (`mediaLost`).
   */
  mediaQuietMs: number;
}

export const DEFAULT_FLOW_TIMING: CallFlowTiming = {
  openMs: 10_000,
  firstFrameMs: 2_000,
  greetingMs: 6_000,
  silenceMs: 8_000,
  holdingMs: 4_000,
  thinkingMs: 3_500,
  heldOnMs: 5_000,
  stallMs: 1_500,
  pausedMs: 2_000,
  transferRequestMs: 8_000,
  transferLegMs: (TRANSFER_RING_SECONDS + WARM_BRIEF_SECONDS + 5) * 1000,
  digitsMs: 6_000,
  voicemailMs: 60_000,
  endingMs: 4_000,
  closeMs: 5_000,
  mediaQuietMs: 5_000,
};

/**
 * The longest the caller can be left without the agent's voice on a live call before the agent
 * speaks or the call is ended at the provider (docs/reliability.md). The chaos test checks it.
 */
export const DEAD_AIR_BOUND_MS = 10_000;

export function initialFlow(
  options: { interruptible: boolean } = { interruptible: true },
): CallFlowState {
  return {
    phase: 'opening',
    converse: false,
    interruptible: options.interruptible,
    speaking: null,
    resumeTo: 'speaking',
    callerSpeaking: false,
    holding: false,
    pendingTurn: false,
    replying: false,
    reprompted: false,
    heldOn: false,
    transferAccepted: false,
    aheadMs: 0,
    greetingAudible: false,
    calleeFirstMs: 0,
    ending: { endedBy: 'system', hungUp: false },
  };
}

export interface FlowStep {
  state: CallFlowState;
  commands: CallFlowCommand[];
  /** Whether the deadline starts again (a new phase, or progress within one). */
  rearm: boolean;
}

const LIVE: ReadonlySet<CallPhase> = new Set([
  'awaitingCallee',
  'greeting',
  'listening',
  'thinking',
  'speaking',
  'paused',
  'collectingDigits',
]);

/** The state's deadline in ms from when it was entered (or last progressed); null: none. */
export function deadlineOf(state: CallFlowState, timing: CallFlowTiming): number | null {
  switch (state.phase) {
    case 'opening':
      return timing.openMs;
    case 'awaitingCallee':
      // A callee still talking at the cap is let finish, once (their words end the wait).
      return state.callerSpeaking ? timing.silenceMs : state.calleeFirstMs;
    case 'greeting':
      // Once it plays, its end is awaited only a little beyond its audio: the caller's silence
      // after it is theirs to break, and listening's own deadline counts it.
      return state.greetingAudible ? state.aheadMs + timing.stallMs : timing.greetingMs;
    case 'listening':
      return state.holding ? timing.holdingMs : timing.silenceMs;
    case 'thinking':
      return state.heldOn ? state.aheadMs + timing.heldOnMs : timing.thinkingMs;
    case 'speaking':
      return state.aheadMs + (state.speaking === 'line' ? timing.stallMs : timing.thinkingMs);
    case 'paused':
      // The caller talking is not dead air; the wait counts from when they stop.
      return state.callerSpeaking ? timing.silenceMs : timing.pausedMs;
    case 'collectingDigits':
      return timing.digitsMs;
    case 'transferring':
      return state.transferAccepted ? timing.transferLegMs : timing.transferRequestMs;
    case 'leavingVoicemail':
      return timing.voicemailMs;
    case 'ending':
      return state.ending.hungUp ? timing.closeMs : state.aheadMs + timing.endingMs;
    case 'handedOff':
      return timing.closeMs;
    case 'ended':
      return null;
  }
}

type EventType = CallFlowEvent['type'];
type On<T extends EventType> = (
  state: CallFlowState,
  event: Extract<CallFlowEvent, { type: T }>,
) => FlowStep;
/** What each event does in one phase; an event a phase does not list changes nothing there. */
type PhaseRules = { [T in EventType]?: On<T> };

/** Events that act the same in every phase, unless the rule gives way (null) to the phase's. */
const EVERY_PHASE: { [T in EventType]?: (...args: Parameters<On<T>>) => FlowStep | null } = {
  streamStopped: (state) => to(state, 'ended', [{ do: 'close' }]),
  mediaLost: (state) => {
    // Nothing can be heard any more: a call that may still be up is ended at the provider now.
    const gone =
      state.phase === 'opening' ||
      state.phase === 'handedOff' ||
      (state.phase === 'ending' && state.ending.hungUp);
    if (gone) return to(state, 'ended', [{ do: 'close' }]);
    return to(state, 'ended', [
      { do: 'hangUp', endedBy: 'service_failure', dependency: 'media' },
      { do: 'close' },
    ]);
  },
  // Outside the conversation the caller's voice changes nothing.
  speechStarted: (state) => (LIVE.has(state.phase) ? null : stay(state)),
  speechEnded: (state) => (LIVE.has(state.phase) ? null : stay(state)),
  machine: (state, event) => {
    // One that takes no message is hung up on, even while a message waits for its beep.
    if (event.message === false)
      return LIVE.has(state.phase) || state.phase === 'leavingVoicemail'
        ? hangUp(state, event.endedBy ?? 'voicemail')
        : stay(state);
    if (!LIVE.has(state.phase)) return stay(state);
    return to(state, 'leavingVoicemail', [{ do: 'interrupt' }, { do: 'leaveVoicemail' }]);
  },
  timeUp: (state) => (LIVE.has(state.phase) ? end(state, 'timeUp', 'max_duration') : stay(state)),
  drain: (state) => {
    if (LIVE.has(state.phase)) return end(state, 'draining', 'drain');
    if (state.phase === 'leavingVoicemail' || state.phase === 'transferring')
      return hangUp(state, 'drain');
    return null;
  },
  // A transfer the provider carried out late, after the session gave up waiting on it.
  transferDone: (state, event) =>
    event.transferred && LIVE.has(state.phase) ? to(state, 'handedOff', [{ do: 'leave' }]) : null,
};

/**
 * The table: per phase, what each event does. Every phase has a `deadline` rule (deadlineOf
 * says when), and the unit test walks every state with every event.
 */
const RULES: Record<Exclude<CallPhase, 'ended'>, PhaseRules> = {
  opening: {
    opened: (state, event) => {
      const opened = { ...state, interruptible: event.interruptible };
      switch (event.plan) {
        case 'converse':
          if (event.calleeFirstMs)
            return to(
              { ...opened, converse: true, calleeFirstMs: event.calleeFirstMs },
              'awaitingCallee',
              [],
            );
          return greet({ ...opened, converse: true });
        case 'greet':
          return greet(opened);
        case 'resume':
          return line({ ...opened, converse: true }, 'transferFailed');
        case 'voicemail':
          return to(opened, 'leavingVoicemail', [{ do: 'leaveVoicemail' }]);
        case 'noMessage':
          return hangUp(opened, 'voicemail');
        case 'silent':
          return hangUp(opened, 'agent');
      }
    },
    refused: (state) => to(state, 'ended', [{ do: 'close', refused: true }]),
    failed: (state) => to(state, 'ended', [{ do: 'close' }]),
    deadline: (state) => to(state, 'ended', [{ do: 'close', refused: true }]),
  },

  awaitingCallee: {
    speechStarted: (state) => to({ ...state, callerSpeaking: true }, 'awaitingCallee', [], false),
    // "Hello?" and a pause: the agent greets; those words are heard, not answered.
    speechEnded: (state) => greet({ ...state, callerSpeaking: false }, true),
    failed: (state, event) => failure(state, event.dependency),
    deadline: (state) =>
      state.callerSpeaking
        ? to({ ...state, callerSpeaking: false }, 'awaitingCallee', [])
        : greet(state),
  },

  greeting: {
    progress: (state, event) => progress({ ...state, greetingAudible: true }, event.aheadMs),
    greeted: (state) => (state.converse ? afterSpeaking(state) : hangUp(state, 'agent')),
    bargeIn: (state) =>
      state.converse && state.interruptible
        ? to({ ...state, callerSpeaking: true, resumeTo: 'greeting' }, 'paused', [{ do: 'pause' }])
        : caller(state, true),
    speechStarted: (state) => caller(state, true),
    speechEnded: (state) => caller(state, false),
    turn: (state, event) => turnWhileSpeaking(state, event.words),
    failed: (state, event) => failure(state, event.dependency),
    // No audio in time: a greeting that never played is a failed speech service; one that
    // played and whose end never came back is taken as heard.
    deadline: (state) => {
      if (!state.greetingAudible) return failure(state, 'tts');
      return state.converse ? afterSpeaking(state) : hangUp(state, 'agent');
    },
  },

  listening: {
    speechStarted: (state) => to({ ...state, callerSpeaking: true }, 'listening', [], false),
    // Words are being recognised: the reply's clock starts now.
    speechEnded: (state) => to({ ...state, callerSpeaking: false, holding: false }, 'thinking', []),
    holding: (state) => to({ ...state, holding: true }, 'listening', []),
    turn: (state, event) => (event.words ? answer(state) : listen(state, state.reprompted)),
    failed: (state, event) => failure(state, event.dependency),
    deadline: (state) => {
      // A caller mid-utterance is talking, not silent: wait on, once (a VAD that never ends the
      // utterance must not hold the call for ever). Words held mid-sentence count as silence.
      if (state.callerSpeaking) return to({ ...state, callerSpeaking: false }, 'listening', []);
      if (state.reprompted) return end(state, 'goodbye', 'agent');
      return line({ ...state, reprompted: true, holding: false }, 'stillThere');
    },
  },

  collectingDigits: {
    // Each key gives the caller digitsMs more.
    key: (state) => to(state, 'collectingDigits', []),
    speechStarted: (state) => to({ ...state, callerSpeaking: true }, 'collectingDigits', [], false),
    speechEnded: (state) => to({ ...state, callerSpeaking: false }, 'collectingDigits', [], false),
    // The entry is complete (the finish key, or all its digits), or the caller spoke instead.
    turn: (state, event) => (event.words ? answer(state) : stay(state)),
    failed: (state, event) => failure(state, event.dependency),
    // A caller talking is waited for once; a pause ends the entry with what was typed.
    deadline: (state) =>
      state.callerSpeaking
        ? to({ ...state, callerSpeaking: false }, 'collectingDigits', [])
        : answer(state),
  },

  thinking: {
    speechStarted: (state) => caller(state, true),
    speechEnded: (state) => caller(state, false),
    // Talking over a reply that has not started: it waits for the verdict like any reply.
    bargeIn: (state) =>
      state.replying && state.interruptible
        ? to(
            { ...state, callerSpeaking: true, resumeTo: 'speaking', speaking: 'reply' },
            'paused',
            [{ do: 'pause' }],
          )
        : caller(state, true),
    // The words so far were an unfinished sentence: back to listening for the rest.
    holding: (state) =>
      state.replying
        ? stay({ ...state, holding: true })
        : to({ ...state, holding: true, heldOn: false }, 'listening', []),
    turn: (state, event) => {
      if (event.words) {
        if (!state.replying) return answer(state);
        if (state.interruptible) return answer(state, [{ do: 'interrupt' }]);
        return stay({ ...state, pendingTurn: true });
      }
      // Nothing was said (a noise, a backchannel): the silence clock starts again.
      return state.replying ? stay(state) : listen(state, state.reprompted);
    },
    replyStarted: (state) =>
      to({ ...state, replying: false, heldOn: false, speaking: 'reply' }, 'speaking', []),
    progress: (state, event) => (state.heldOn ? progress(state, event.aheadMs) : stay(state)),
    replyDone: (state, event) => replied(state, event.outcome),
    failed: (state, event) => failure(state, event.dependency),
    deadline: (state) => {
      if (state.callerSpeaking) return to({ ...state, callerSpeaking: false }, 'thinking', []);
      if (!state.heldOn) return line({ ...state, heldOn: true }, 'holdOn', 'thinking');
      return failure(state, undefined);
    },
  },

  speaking: {
    progress: (state, event) => progress(state, event.aheadMs),
    bargeIn: (state) =>
      state.speaking === 'reply' && state.interruptible
        ? to({ ...state, callerSpeaking: true, resumeTo: 'speaking' }, 'paused', [{ do: 'pause' }])
        : caller(state, true),
    speechStarted: (state) => caller(state, true),
    speechEnded: (state) => caller(state, false),
    turn: (state, event) => turnWhileSpeaking(state, event.words),
    replyDone: (state, event) => replied(state, event.outcome),
    lineDone: (state) => (state.speaking === 'line' ? afterSpeaking(state) : stay(state)),
    failed: (state, event) => failure(state, event.dependency),
    // The reply stopped coming (a model or synthesis stalled past its own bounds): the agent
    // owns up and listens. A line whose end never came back is taken as heard.
    deadline: (state) =>
      state.speaking === 'line'
        ? afterSpeaking(state)
        : line(state, 'apology', 'speaking', [{ do: 'interrupt' }]),
  },

  paused: {
    speechStarted: (state) => to({ ...state, callerSpeaking: true }, 'paused', []),
    speechEnded: (state) => to({ ...state, callerSpeaking: false }, 'paused', []),
    turn: (state, event) =>
      event.words
        ? answer({ ...state, callerSpeaking: false }, [{ do: 'interrupt' }])
        : resume(state),
    // An unfinished sentence over the reply: the reply stops, the rest of the turn is awaited.
    holding: (state) =>
      to({ ...state, holding: true, speaking: null, replying: false }, 'listening', [
        { do: 'interrupt' },
      ]),
    replyStarted: (state) => stay({ ...state, resumeTo: 'speaking' }),
    replyDone: (state, event) => replied(state, event.outcome),
    failed: (state, event) => failure(state, event.dependency),
    // No verdict in time (a slow recogniser): the reply speaks on; a late real turn stops it.
    deadline: (state) => resume(state),
  },

  transferring: {
    transferAccepted: (state) => to({ ...state, transferAccepted: true }, 'transferring', []),
    transferDone: (state, event) =>
      event.transferred
        ? to(state, 'handedOff', [{ do: 'leave' }])
        : line({ ...state, transferAccepted: false }, 'transferFailed'),
    failed: (state, event) => failure(state, event.dependency),
    // Not done in time: taken as refused (a late success still hands the call off).
    deadline: (state) => line({ ...state, transferAccepted: false }, 'transferFailed'),
  },

  leavingVoicemail: {
    voicemailDone: (state) => hangUp(state, 'voicemail'),
    failed: (state, event) => hangUp(state, 'service_failure', event.dependency),
    deadline: (state) => hangUp(state, 'voicemail'),
  },

  ending: {
    progress: (state, event) =>
      state.ending.hungUp ? stay(state) : progress(state, event.aheadMs),
    lineDone: (state) => lastWordsDone(state),
    failed: (state) => lastWordsDone(state),
    hungUp: (state) => (state.ending.hungUp ? to(state, 'ended', [{ do: 'close' }]) : stay(state)),
    deadline: (state) => {
      const why = state.ending;
      if (why.hungUp) return to(state, 'ended', [{ do: 'close' }]);
      return hangUp(state, why.endedBy, why.dependency);
    },
  },

  handedOff: {
    deadline: (state) => to(state, 'ended', [{ do: 'close' }]),
  },
};

/** The one transition function: `(state, event) → (state, commands)`. */
export function step(state: CallFlowState, event: CallFlowEvent): FlowStep {
  if (state.phase === 'ended') return stay(state);
  const everywhere = EVERY_PHASE[event.type] as
    ((state: CallFlowState, event: CallFlowEvent) => FlowStep | null) | undefined;
  const global = everywhere?.(state, event);
  if (global) return global;
  const rule = RULES[state.phase][event.type] as
    ((state: CallFlowState, event: CallFlowEvent) => FlowStep) | undefined;
  return rule ? rule(state, event) : stay(state);
}

// ——— shared moves ———

/** The last words were said (or could not be): the hang-up, unless it was asked already. */
function lastWordsDone(state: CallFlowState): FlowStep {
  const why = state.ending;
  return why.hungUp ? stay(state) : hangUp(state, why.endedBy, why.dependency);
}

function stay(state: CallFlowState): FlowStep {
  return { state, commands: [], rearm: false };
}

function to(
  state: CallFlowState,
  phase: CallPhase,
  commands: CallFlowCommand[],
  rearm = true,
): FlowStep {
  return { state: FINAL.has(phase) ? settled(state, phase) : { ...state, phase }, commands, rearm };
}

/** Phases the conversation never comes back from: what it was doing is forgotten. */
const FINAL: ReadonlySet<CallPhase> = new Set(['leavingVoicemail', 'ending', 'handedOff', 'ended']);

function settled(state: CallFlowState, phase: CallPhase): CallFlowState {
  const fresh = {
    ...initialFlow({ interruptible: state.interruptible }),
    converse: state.converse,
  };
  return phase === 'ending'
    ? { ...fresh, phase, speaking: state.speaking, aheadMs: state.aheadMs, ending: state.ending }
    : { ...fresh, phase };
}

/** The greeting starts (after the callee's first words, when `afterCallee`). */
function greet(state: CallFlowState, afterCallee = false): FlowStep {
  return to({ ...state, speaking: 'reply' }, 'greeting', [
    afterCallee ? { do: 'greet', afterCallee } : { do: 'greet' },
  ]);
}

function caller(state: CallFlowState, speaking: boolean): FlowStep {
  return stay({ ...state, callerSpeaking: speaking });
}

function progress(state: CallFlowState, aheadMs: number): FlowStep {
  return to({ ...state, aheadMs }, state.phase, []);
}

function listen(state: CallFlowState, reprompted = false): FlowStep {
  return to(
    {
      ...state,
      speaking: null,
      replying: false,
      heldOn: false,
      aheadMs: 0,
      callerSpeaking: false,
      reprompted,
    },
    'listening',
    [],
  );
}

/** A caller turn with words: the agent answers it (with every turn not answered yet). */
function answer(state: CallFlowState, before: CallFlowCommand[] = []): FlowStep {
  return to(
    {
      ...state,
      replying: true,
      pendingTurn: false,
      reprompted: false,
      heldOn: false,
      holding: false,
      speaking: null,
      aheadMs: 0,
    },
    'thinking',
    [...before, { do: 'reply' }],
  );
}

/** A turn while the agent speaks: an interruptible reply gives way; else it is answered after. */
function turnWhileSpeaking(state: CallFlowState, words: boolean): FlowStep {
  if (!words) return stay(state);
  if (state.speaking === 'reply' && state.interruptible && state.converse)
    return answer(state, [{ do: 'interrupt' }]);
  return stay({ ...state, pendingTurn: state.converse || state.pendingTurn });
}

function replied(state: CallFlowState, outcome: ReplyOutcome): FlowStep {
  switch (outcome) {
    case 'answered':
      return afterSpeaking(state);
    case 'empty':
      // The model said nothing: the caller is asked again rather than left in silence.
      return line(state, 'apology');
    case 'endCall':
      return hangUp(state, 'agent');
    case 'optOut':
      return end(state, 'optOut', 'agent');
    case 'collectDigits':
      return to({ ...toolTakesOver(state), reprompted: false }, 'collectingDigits', []);
    case 'transfer':
      return to({ ...toolTakesOver(state), transferAccepted: false }, 'transferring', [
        { do: 'transfer' },
      ]);
  }
}

/** A reply's tool takes the call over (a transfer, an entry on the keypad): nothing is under way. */
function toolTakesOver(state: CallFlowState): CallFlowState {
  return {
    ...state,
    speaking: null,
    replying: false,
    callerSpeaking: false,
    holding: false,
    pendingTurn: false,
    heldOn: false,
    aheadMs: 0,
  };
}

/** The agent finished speaking: a turn that came meanwhile is answered, else it listens. */
function afterSpeaking(state: CallFlowState): FlowStep {
  return state.pendingTurn ? answer(state) : listen(state, state.reprompted);
}

function resume(state: CallFlowState): FlowStep {
  return to({ ...state, callerSpeaking: false }, state.resumeTo, [{ do: 'resume' }]);
}

/** Says one of the agent's lines, then goes on from `phase` (speaking a line by default). */
function line(
  state: CallFlowState,
  text: AgentLine,
  phase: CallPhase = 'speaking',
  before: CallFlowCommand[] = [],
): FlowStep {
  const speaking = phase === 'speaking' ? 'line' : state.speaking;
  return to({ ...state, speaking, aheadMs: 0 }, phase, [...before, { do: 'say', line: text }]);
}

/** Last words, then the hang-up (the lines's end, or the deadline, whichever first). */
function end(state: CallFlowState, text: AgentLine, endedBy: SessionEndedBy): FlowStep {
  return to(
    {
      ...state,
      speaking: 'line',
      replying: false,
      aheadMs: 0,
      ending: { endedBy, hungUp: false },
    },
    'ending',
    [{ do: 'interrupt' }, { do: 'say', line: text }],
  );
}

/**
 * A dependency failed for good (or the call stalled with no answer in time: the session names
 * what it waited on): an apology, then the hang-up.
 */
function failure(state: CallFlowState, dependency: CallDependency | undefined): FlowStep {
  const step = end(state, 'serviceFailure', 'service_failure');
  return {
    ...step,
    state: { ...step.state, ending: { ...step.state.ending, dependency } },
  };
}

function hangUp(
  state: CallFlowState,
  endedBy: SessionEndedBy,
  dependency?: CallDependency,
): FlowStep {
  return to(
    { ...state, speaking: null, replying: false, ending: { endedBy, dependency, hungUp: true } },
    'ending',
    [{ do: 'hangUp', endedBy, dependency }],
  );
}
