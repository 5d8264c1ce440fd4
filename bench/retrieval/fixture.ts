/**
 * The labelled retrieval set of test/fixtures/retrieval: a fictional bike shop's documents and
 * the questions its customers ask, each with the passages that answer it. Loaded, checked (every
 * label must name a phrase of its file) and indexed as the extraction job indexes documents.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { newObjectId } from '../../src/common/object-id';
import type { Database } from '../../src/database';
import { chunkText } from '../../src/modules/knowledge-bases/chunk-text';
import type { DocumentKind } from '../../src/modules/knowledge-bases/document-type';
import { DOCUMENT_KINDS } from '../../src/modules/knowledge-bases/document-type';
import { extractText } from '../../src/modules/knowledge-bases/extraction/extract-text';
import type { KnowledgeBaseLanguage } from '../../src/modules/knowledge-bases/knowledge-base-languages';
import type { KnowledgeBasePassagesRepository } from '../../src/modules/knowledge-bases/knowledge-base-passages.repository';
import {
  knowledgeBaseDocuments,
  knowledgeBases,
} from '../../src/modules/knowledge-bases/knowledge-bases.schema';
import type { PassageEmbedder } from '../../src/modules/knowledge-bases/retrieval/passage-embedder';
import { organizations } from '../../src/modules/organizations/organizations.schema';

export const FIXTURE_DIR = join(__dirname, '../../test/fixtures/retrieval');

export interface Answer {
  file: string;
  contains: string;
}

export interface Question {
  id: string;
  kind: string;
  q: string;
  answers: Answer[];
}

export interface RetrievalSet {
  questions: Question[];
  offTopic: string[];
  /** File name → extracted text. */
  documents: Map<string, string>;
}

const KINDS: Record<string, DocumentKind> = { '.md': 'md', '.csv': 'csv', '.txt': 'txt' };

export async function loadRetrievalSet(): Promise<RetrievalSet> {
  const { questions, offTopic } = JSON.parse(
    readFileSync(join(FIXTURE_DIR, 'questions.json'), 'utf8'),
  ) as { questions: Question[]; offTopic: string[] };
  const documents = new Map<string, string>();
  for (const file of readdirSync(join(FIXTURE_DIR, 'corpus')).sort()) {
    const kind = KINDS[extname(file)];
    if (!kind) throw new Error(`corpus/${file}: not a .md, .csv or .txt file`);
    documents.set(file, await extractText(kind, readFileSync(join(FIXTURE_DIR, 'corpus', file))));
  }
  for (const question of questions) {
    for (const { file, contains } of question.answers) {
      if (!documents.get(file)?.includes(contains)) {
        throw new Error(`${question.id}: ${file} does not hold "${contains}"`);
      }
    }
  }
  return { questions, offTopic, documents };
}

/** Whether a passage found answers the question. */
export const answers = (question: Question, hit: { fileName: string; text: string }): boolean =>
  question.answers.some(
    ({ file, contains }) => hit.fileName === file && hit.text.includes(contains),
  );

export interface BenchBase {
  organizationId: string;
  knowledgeBaseId: string;
}

/** A new organization with one empty knowledge base. */
export async function createBase(
  database: Database,
  language: KnowledgeBaseLanguage = 'english',
): Promise<BenchBase> {
  const organizationId = newObjectId();
  const knowledgeBaseId = newObjectId();
  await database.db.insert(organizations).values({ id: organizationId, name: 'Bench' });
  await database.db
    .insert(knowledgeBases)
    .values({ id: knowledgeBaseId, organizationId, name: 'Northwind Cycles', language });
  return { organizationId, knowledgeBaseId };
}

/** One ready document of the base, its passages cut, embedded and written as the job does. */
export async function addDocument(
  tools: {
    database: Database;
    passages: KnowledgeBasePassagesRepository;
    embedder: PassageEmbedder;
  },
  base: BenchBase,
  fileName: string,
  texts: string[],
  language: KnowledgeBaseLanguage = 'english',
): Promise<void> {
  const { database, passages, embedder } = tools;
  const id = newObjectId();
  const embeddings = await embedder.embedPassages(texts);
  await database.transaction(async () => {
    await database.db.insert(knowledgeBaseDocuments).values({
      id,
      organizationId: base.organizationId,
      knowledgeBaseId: base.knowledgeBaseId,
      fileName,
      storageKey: `bench/${id}`,
      size: 1,
      contentType: DOCUMENT_KINDS.txt,
      status: 'ready',
    });
    await passages.replace(
      base.organizationId,
      { id, knowledgeBaseId: base.knowledgeBaseId },
      texts.map((text, index) => ({ text, embedding: embeddings[index] })),
      language,
    );
  });
}

/** Every document of the set, cut into passages as uploads are. */
export function corpusPassages(set: RetrievalSet): Array<[fileName: string, texts: string[]]> {
  return [...set.documents].map(([file, text]) => [file, chunkText(text)]);
}
