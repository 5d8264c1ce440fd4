import { randomBytes } from 'node:crypto';
import { Injectable, type Type, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import { newObjectId } from '../../common/object-id';
import { validateBody } from '../../common/validation';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { JobName, JobQueue } from '../../queue';
import { deleteQuietly, ObjectStorage } from '../../storage/object-storage';
import {
  DOCUMENT_KINDS,
  detectDocumentKind,
  TYPE_SNIFF_BYTES,
  UnsupportedDocumentError,
} from './document-type';
import { DOCUMENTS_FIELD, receiveDocuments, type StoredUpload } from './document-upload';
import { KnowledgeBasesRepository, type NewDocument } from './knowledge-bases.repository';

/** A received form: its validated fields and its documents, stored and typed. */
export interface ReceivedForm<T> {
  fields: T;
  documents: NewDocument[];
}

/**
 * The upload half of creating and updating a knowledge base: the bytes go to storage first
 * (no database connection held while they stream in), then the caller's short transaction
 * attaches them; whatever fails on the way leaves no stored file behind.
 */
@Injectable()
export class KnowledgeBaseUploadsService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly storage: ObjectStorage,
    private readonly repository: KnowledgeBasesRepository,
    private readonly queue: JobQueue,
  ) {}

  /**
   * Reads the multipart request: files into storage, fields validated against `form` (400),
   * each file's type decided (415). On failure every stored file is deleted.
   */
  async receive<T extends object>(request: Request, form: Type<T>): Promise<ReceivedForm<T>> {
    if (!request.is('multipart/form-data')) {
      throw new UnsupportedMediaTypeException(
        `Send multipart/form-data: the text fields, and documents in the ${DOCUMENTS_FIELD} field`,
      );
    }
    const { fields, files } = await receiveDocuments(request, {
      maxBytes: this.config.storage.uploadMaxBytes,
      storage: this.storage,
      newKey: () => `kbdoc-${newObjectId()}-${randomBytes(8).toString('hex')}`,
    });
    try {
      const dto = await validateBody(form, fields);
      return { fields: dto, documents: await Promise.all(files.map(typed)) };
    } catch (error) {
      await deleteQuietly(this.storage, keysOf(files));
      throw error;
    }
  }

  /**
   * Runs `work` (which attaches the documents through `attach`) in one transaction; if it
   * fails, the received files are deleted from storage.
   */
  async commit<R>(documents: NewDocument[], work: () => Promise<R>): Promise<R> {
    try {
      return await this.database.transaction(work);
    } catch (error) {
      await deleteQuietly(
        this.storage,
        documents.map((document) => document.storageKey),
      );
      throw error;
    }
  }

  /**
   * Inside commit(): adds the documents to the base, replacing any document with the same
   * name (within the request, the later file wins), and queues their text extraction. The
   * replaced files leave storage once the transaction has committed.
   */
  async attach(
    organizationId: string,
    knowledgeBaseId: string,
    documents: NewDocument[],
  ): Promise<void> {
    const byName = new Map<string, NewDocument>();
    const dropped: string[] = [];
    for (const document of documents) {
      const earlier = byName.get(document.fileName);
      if (earlier) dropped.push(earlier.storageKey);
      byName.set(document.fileName, document);
    }
    const replaced = await this.repository.deleteDocumentsNamed(organizationId, knowledgeBaseId, [
      ...byName.keys(),
    ]);
    const rows = await this.repository.insertDocuments(organizationId, knowledgeBaseId, [
      ...byName.values(),
    ]);
    for (const row of rows) {
      await this.queue.enqueue(
        JobName.ExtractKnowledgeBaseDocument,
        { organizationId, documentId: row.id },
        { jobId: `kbdoc-${row.id}` },
      );
    }
    const stale = [...dropped, ...replaced];
    if (stale.length > 0) this.database.afterCommit(() => deleteQuietly(this.storage, stale));
  }
}

async function typed(file: StoredUpload): Promise<NewDocument> {
  try {
    const kind = await detectDocumentKind(file.head, file.fileName, file.bytes < TYPE_SNIFF_BYTES);
    return {
      fileName: file.fileName,
      storageKey: file.key,
      size: file.bytes,
      contentType: DOCUMENT_KINDS[kind],
    };
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) {
      throw new UnsupportedMediaTypeException(error.message);
    }
    throw error;
  }
}

const keysOf = (files: StoredUpload[]) => files.map((file) => file.key);
