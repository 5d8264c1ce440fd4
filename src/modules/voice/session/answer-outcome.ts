import type { AnswerOutcome } from '@app/contracts';

/** Outcomes that are machines: the phone log's answeredBy becomes `machine`. */
export const MACHINE_OUTCOMES: ReadonlySet<AnswerOutcome> = new Set([
  'voicemail',
  'mailbox_full',
  'fax',
]);

/**
 * What each class of greeting says, loosely (recognisers drop and mishear words): the first
 * class that matches wins, the most specific first — a full mailbox also says "leave a
 * message", a screening assistant "stay on the line".
 */
const PHRASES: ReadonlyArray<[AnswerOutcome, RegExp]> = [
  [
    'mailbox_full',
    /\b(mail ?box|voice ?mail|memory)\b( \S+){0,6} (is|was) full\b|\b(can ?not|can't|unable to) (accept|take|receive) (any )?(new |more )?messages\b|\bmailbox (has not|hasn't|is not|isn't) (been )?set up\b/,
  ],
  [
    'call_screening',
    /\b(state|say|record) your name\b|\bwho('s| is) calling\b|\breason for (your |the )?call(ing)?\b|\bscreening\b|\bgoogle assistant\b|\bwhat (are you|is this) calling about\b|\bbefore i (try to )?connect you\b|\bcall assist\b/,
  ],
  [
    'ivr',
    /\bpress (one|two|three|four|five|six|seven|eight|nine|zero|pound|star|\d)\b|\bmain menu\b|\bmenu (options|has changed)\b|\blisten carefully\b|\boptions have changed\b|\bdial by name\b|\bextension\b|\bsay or press\b|\bpara espa[nñ]ol\b/,
  ],
  [
    'voicemail',
    /\bleave (a |your |me a )?(brief |short )?message\b|\b(after|at) the (tone|beep)\b|\b(is |am |are )?not available\b|\b(can't|cannot|can not|unable to) (come to|answer|take|get to) (the |your )?(phone|call)\b|\bvoice ?mail\b|\bmail ?box\b|\brecord your message\b|\bget back to you\b|\bcall you back\b|\byou('ve| have) reached\b/,
  ],
];

/**
 * Single words that tell which kind of machine a recording is when a recogniser got little else
 * right ("the … you are … full you cannot"): only ever asked of a greeting already known to be a
 * machine, by its words or its length, never to tell a person from a machine.
 */
const CUES: ReadonlyArray<[AnswerOutcome, RegExp]> = [
  ['mailbox_full', /\bfull\b(?! name)|\bset up\b/],
  [
    'call_screening',
    /\bscreen(ed|ing)?\b|\breason\b|\bassistant\b|\bconnect you\b|\bwhy you('re| are) calling\b/,
  ],
  ['ivr', /\bpress\b|\bmenu\b|\boptions?\b|\bextension\b|\bdial\b|\boprima\b|\bespa[nñ]ol\b/],
];

const normalised = (words: string) =>
  words
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ');

/** The outcome a machine's words give away; null: nothing machine-like in them. */
export function outcomeOfWords(words: string): AnswerOutcome | null {
  const said = normalised(words);
  for (const [outcome, phrase] of PHRASES) if (phrase.test(said)) return outcome;
  return null;
}

/** What kind of recording a machine's greeting is, from its words: voicemail unless they tell otherwise. */
export function machineKindOfWords(words: string): AnswerOutcome {
  const outcome = outcomeOfWords(words);
  if (outcome && outcome !== 'voicemail') return outcome;
  const said = normalised(words);
  for (const [kind, cue] of CUES) if (cue.test(said)) return kind;
  return 'voicemail';
}
