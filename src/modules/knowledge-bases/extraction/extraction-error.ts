/**
 * The document's content cannot be turned into text (corrupt, encrypted, a zip bomb, …): the
 * document is marked failed with this message as its reason, and the job is not retried.
 */
export class ExtractionError extends Error {}
