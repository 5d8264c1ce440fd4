/** What the agent says on its own, outside the model's replies (English for now). */
export const APOLOGY = "Sorry, I didn't catch that — could you say it again?";
export const STILL_THERE = 'Are you still there?';
export const SILENT_GOODBYE = "I'll let you go for now. Goodbye.";
export const TIME_UP = "I'm sorry, we've run out of time for this call. Thank you, goodbye.";

export const TRANSFER_FAILED =
  "I'm sorry, I couldn't connect you to a colleague right now. Let me keep helping you myself.";

export const OPT_OUT_CONFIRMATION = "Understood, we won't call this number again. Goodbye.";

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
