/**
 * The text search configurations a knowledge base may use: those PostgreSQL 15 and PGlite both
 * ship (stemming and stop words of one language), and `simple` (words as written, no stop
 * words: for bases mixing languages).
 */
export const KNOWLEDGE_BASE_LANGUAGES = [
  'simple',
  'arabic',
  'armenian',
  'basque',
  'catalan',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hindi',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'serbian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
  'yiddish',
] as const;

export type KnowledgeBaseLanguage = (typeof KNOWLEDGE_BASE_LANGUAGES)[number];

export const DEFAULT_KNOWLEDGE_BASE_LANGUAGE: KnowledgeBaseLanguage = 'english';
