import { Inject, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { describeUnknown } from '../../common/describe-error';
import { Database } from '../../database';
import {
  type HandlesJob,
  type JobContext,
  JobHandler,
  JobName,
  type JobPayloads,
} from '../../queue';
import { JOB_RETRY_POLICY, type JobRetryPolicy } from '../../queue/jobs';
import { ObjectStorage } from '../../storage/object-storage';
import { chunkText } from './chunk-text';
import { kindOfContentType } from './document-type';
import { extractText } from './extraction/extract-text';
import { ExtractionError } from './extraction/extraction-error';
import { KnowledgeBasePassagesRepository } from './knowledge-base-passages.repository';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import { PassageEmbedder } from './retrieval/passage-embedder';

/**
 * Turns an uploaded document into searchable passages (queued after the upload commits): reads
 * its bytes from storage, extracts the text (bounded: see EXTRACTION_LIMITS), cuts it into
 * overlapping passages, embeds them (PassageEmbedder: the endpoint, else offline) and writes
 * them, indexed in the base's language, with the document's `ready` status in one transaction.
 * Unreadable content marks the document `failed` with the reason at once; any other error is
 * retried, and the last attempt marks it failed too. A document deleted or replaced meanwhile
 * is left alone.
 */
@JobHandler(JobName.ExtractKnowledgeBaseDocument)
export class DocumentTextHandler implements HandlesJob<JobName.ExtractKnowledgeBaseDocument> {
  private readonly logger = new Logger('KnowledgeBases');

  constructor(
    private readonly database: Database,
    private readonly storage: ObjectStorage,
    private readonly documents: KnowledgeBasesRepository,
    private readonly passages: KnowledgeBasePassagesRepository,
    private readonly embedder: PassageEmbedder,
    @Inject(JOB_RETRY_POLICY) private readonly policy: JobRetryPolicy,
  ) {}

  async handle(
    { organizationId, documentId }: JobPayloads[JobName.ExtractKnowledgeBaseDocument],
    { attempt }: JobContext,
  ): Promise<void> {
    const document = await this.documents.findDocument(organizationId, documentId);
    if (!document || document.status !== 'processing') return;
    let texts: string[];
    try {
      const kind = kindOfContentType(document.contentType);
      if (!kind) throw new ExtractionError(`Unsupported content type ${document.contentType}`);
      const stream = await this.storage.get(document.storageKey);
      if (!stream) throw new ExtractionError('The stored file is missing');
      texts = chunkText(await extractText(kind, await readAll(stream, document.size)));
    } catch (error) {
      if (error instanceof ExtractionError || attempt >= this.policy.attempts) {
        const reason =
          error instanceof ExtractionError ? error.message : 'Text extraction failed repeatedly';
        await this.documents.finishDocument(organizationId, documentId, {
          status: 'failed',
          reason,
        });
        this.logger.warn({ documentId, reason, ...describeUnknown(error) }, 'Document failed');
        if (error instanceof ExtractionError) return;
      }
      throw error;
    }
    // Before the transaction: an embeddings endpoint may take a while, and never fails this.
    const embeddings = await this.embedder.embedPassages(texts);
    const passages = texts.map((text, index) => ({ text, embedding: embeddings[index] }));
    await this.database.background(async () => {
      const language = await this.documents.lockLanguage(organizationId, document.knowledgeBaseId);
      const ready =
        language !== undefined &&
        (await this.documents.finishDocument(organizationId, documentId, { status: 'ready' }));
      // Deleted, replaced or already ended meanwhile: its passages would belong to nothing.
      if (ready) await this.passages.replace(organizationId, document, passages, language);
    });
  }
}

/** The whole stream, refused past `expectedBytes` (the size recorded at upload). */
async function readAll(stream: Readable, expectedBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > expectedBytes) {
      stream.destroy();
      throw new ExtractionError('The stored file is larger than the upload');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
