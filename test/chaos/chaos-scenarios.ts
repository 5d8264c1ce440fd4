import type { Integration } from '../../src/modules/telephony/telephony.types';
import type { ChatReply } from '../fakes/chat.fake';
import type { SeededRandom } from './seeded-random';

/** How the callee answers the phone. */
export type Answer = 'completed' | 'busy' | 'no-answer';

/**
 * What the caller does once the call is answered: talks (two questions, then hangs up), says
 * nothing, mumbles words no recogniser makes anything of, lets the stream go quiet while its
 * socket stays open (half-open), cuts the socket without a `stop`, or hangs up during the greeting.
 */
export type CallerBehaviour = 'talk' | 'silent' | 'mumble' | 'quiet' | 'cut' | 'hangUpEarly';

/** What the chat model does on this call's turns. */
export type ModelFault = 'none' | 'error' | 'rateLimited' | 'stall' | 'midStream' | 'slow';

export interface CallScenario {
  index: number;
  provider: Integration;
  phoneNumber: string;
  /** Unique per call: the agent's prompt quotes it, so the chat fake knows the call by it. */
  contactName: string;
  answer: Answer;
  caller: CallerBehaviour;
  model: ModelFault;
}

const PROVIDERS: Integration[] = ['provider_two', 'provider_one', 'provider_three'];
const FAULTY_ANSWERS: Answer[] = ['busy', 'no-answer'];
const FAULTY_CALLERS: CallerBehaviour[] = ['silent', 'mumble', 'quiet', 'cut', 'hangUpEarly'];
const MODEL_FAULTS: ModelFault[] = ['error', 'rateLimited', 'stall', 'midStream', 'slow'];

/** `count` calls spread over the three providers, each dimension faulted with `faultRate`. */
export function drawScenarios(
  random: SeededRandom,
  count: number,
  faultRate: number,
): CallScenario[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    provider: PROVIDERS[index % PROVIDERS.length],
    // A valid NANP number per call (exchange 2xx), never a real subscriber's pattern.
    phoneNumber: `+1212${String(300 + Math.floor(index / 10_000)).padStart(3, '0')}${String(index % 10_000).padStart(4, '0')}`,
    contactName: `Chaos caller ${index}`,
    answer: random.chance(faultRate) ? random.pick(FAULTY_ANSWERS) : 'completed',
    caller: random.chance(faultRate) ? random.pick(FAULTY_CALLERS) : 'talk',
    model: random.chance(faultRate) ? random.pick(MODEL_FAULTS) : 'none',
  }));
}

/** Whether any dimension of the call is faulted. */
export const faulted = (scenario: CallScenario): boolean =>
  scenario.answer !== 'completed' || scenario.caller !== 'talk' || scenario.model !== 'none';

/** The chat fake's answers to this call's turns (a call asks at most a few). */
export function modelReplies(fault: ModelFault): ChatReply[] {
  const fine: ChatReply = {
    kind: 'text',
    pieces: ['Sure, we open ', 'at nine. And close at five.'],
  };
  switch (fault) {
    case 'none':
    case 'slow':
      return [fine, fine, fine];
    case 'error':
      return [{ kind: 'error', status: 500 }, fine, fine];
    case 'rateLimited':
      return [{ kind: 'error', status: 429, code: 'rate_limit_exceeded' }, fine, fine];
    case 'stall':
      return [{ kind: 'stall' }, fine, fine];
    case 'midStream':
      return [{ kind: 'mid-stream-error', pieces: ['Sure, we '] }, fine, fine];
  }
}
