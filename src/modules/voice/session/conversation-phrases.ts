import type { AgentLine } from './call-flow';

/** What the agent says on its own, outside the model's replies (English for now). */
export const APOLOGY = "Sorry, I didn't catch that — could you say it again?";
export const STILL_THERE = 'Are you still there?';
export const SILENT_GOODBYE = "I'll let you go for now. Goodbye.";
export const TIME_UP = "I'm sorry, we've run out of time for this call. Thank you, goodbye.";

export const TRANSFER_FAILED =
  "I'm sorry, I couldn't connect you to a colleague right now. Let me keep helping you myself.";

/** A warm transfer's brief when the model gave neither a summary nor a reason. */
export const WARM_BRIEF_FALLBACK = 'A caller on the line asked to speak with a person.';

export const OPT_OUT_CONFIRMATION = "Understood, we won't call this number again. Goodbye.";

/** While an answer is slow to come. */
export const HOLD_ON = 'One moment, please.';

/** A speech service or the model failed for good: the call ends politely. */
export const SERVICE_FAILURE =
  "I'm sorry, I'm having technical trouble and have to end the call. We'll be in touch. Goodbye.";

/** The process shuts down and its grace period has passed (the contact is called again). */
export const DRAINING = "I'm sorry, I have to end the call now. We'll call you back. Goodbye.";

/** The text of each of the agent's own lines (call-flow.ts). */
export const AGENT_LINES: Readonly<Record<AgentLine, string>> = {
  stillThere: STILL_THERE,
  holdOn: HOLD_ON,
  apology: APOLOGY,
  transferFailed: TRANSFER_FAILED,
  goodbye: SILENT_GOODBYE,
  timeUp: TIME_UP,
  optOut: OPT_OUT_CONFIRMATION,
  serviceFailure: SERVICE_FAILURE,
  draining: DRAINING,
};

/** Short acknowledgements that are not a turn: the agent keeps listening. */
const BACKCHANNELS = new Set([
  'uh-huh',
  'uh huh',
  'yeah',
  'ok',
  'okay',
  'right',
  'mm-hmm',
  'mhm',
  'mm',
]);

export const isBackchannel = (transcript: string): boolean =>
  BACKCHANNELS.has(
    transcript
      .toLowerCase()
      .replace(/[.,!?…]/g, '')
      .trim(),
  );

/**
 * A caller turn that is none: nothing recognised, a backchannel, or no word at all (noise the
 * recogniser wrote as punctuation). After a barge-in it is a false interruption.
 */
export const isNoTurn = (transcript: string): boolean =>
  transcript === '' || isBackchannel(transcript) || !/[\p{L}\p{N}]/u.test(transcript);

/** Words that cannot end a sentence: conjunctions, articles and possessives, fillers. */
const OPEN_ENDINGS = new Set(
  [
    'and but or nor so because cause if unless although whereas',
    'the a an my your our their',
    'um umm uh uhh er erm uhm',
  ].flatMap((words) => words.split(' ')),
);
/** Prepositions that end only a question ("who am I speaking with"); not "on"/"in": "hold on". */
const PREPOSITIONS = new Set(['to', 'of', 'for', 'with', 'at', 'from', 'about', 'into', 'than']);
const QUESTION_OPENERS = /^(what|who|whom|whose|where|which|how|when|why)\b/;
/** "so" and "to" close these: "I think so", "I'd like to". */
const CLOSED_BEFORE: Record<string, Set<string>> = {
  so: new Set(['think', 'guess', 'hope', 'believe', 'suppose', 'said', 'say', 'do', 'not']),
  to: new Set(
    'want wanted like love have has had need needed going got used supposed able mean meant try tried ought hate prefer plan hope wish'.split(
      ' ',
    ),
  ),
  my: new Set(['oh']),
};
/** "my number is", "the address was": a subject and its verb, waiting for what it is. */
const SUBJECT_AND_VERB =
  /(?:^|\s)(?<!(?:where|what|who|how|when|which|whether|if)\s)(?:my|our|your|their|the)(?:\s[\p{L}'-]+){1,3}\s(?:is|was|are|were)$/u;
const DIGIT_WORDS = new Set('zero oh one two three four five six seven eight nine'.split(' '));
const PHONE_CUE = /\b(number|phone|cell|mobile|call|reach|text|extension)\b/;

/**
 * How many digits the transcript ends with, when it ends in digits ("555", "five five five",
 * "555-01"), and in how many spoken pieces.
 */
function trailingDigits(words: string[]): { digits: number; pieces: number } {
  let digits = 0;
  let pieces = 0;
  for (const word of [...words].reverse()) {
    const count = DIGIT_WORDS.has(word) ? 1 : /^\d+$/.test(word) ? word.length : 0;
    if (count === 0) break;
    digits += count;
    pieces += 1;
  }
  return { digits, pieces };
}

/**
 * Whether the caller stopped mid-sentence, so the turn should wait longer for the rest: the
 * last word cannot end a sentence (a conjunction, article, filler, a preposition outside a
 * question), a subject waits for its verb's complement ("my number is"), the recogniser wrote a
 * trailing comma, dash or ellipsis, or a phone number stops at a group boundary (3 or 6 digits
 * of 3-3-4, read digit by digit or after a word like "number"). Conservative: when in doubt it
 * says finished, since a wrong "unfinished" only delays the reply.
 */
export function isUnfinishedUtterance(transcript: string): boolean {
  const text = transcript.toLowerCase().trim();
  if (text === '' || text.endsWith('?')) return false;
  if (/(,|-|–|—|\.\.\.|…)$/.test(text)) return true;
  const words = text
    .replace(/[.!]+$/, '')
    .split(/[\s,;:]+|(?<=\d)[-.](?=\d)/)
    .filter((word) => word !== '');
  const last = words.at(-1);
  if (!last) return false;
  if (CLOSED_BEFORE[last]?.has(words.at(-2) ?? '')) return false;
  if (OPEN_ENDINGS.has(last)) return true;
  if (PREPOSITIONS.has(last)) return !QUESTION_OPENERS.test(text);
  if (SUBJECT_AND_VERB.test(words.join(' '))) return true;
  const { digits, pieces } = trailingDigits(words);
  return (digits === 3 || digits === 6) && (pieces > 1 || PHONE_CUE.test(text));
}
