/**
 * Quotes data (contact fields, knowledge passages) for a system prompt as JSON that cannot close
 * the tag it sits in: the model reads it as data, not as instructions.
 */
export const quotePromptData = (value: unknown): string =>
  JSON.stringify(value, null, 1).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
