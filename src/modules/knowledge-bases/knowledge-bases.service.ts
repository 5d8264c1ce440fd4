import { Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { toPagination, type PaginationDto } from '../../common/page.query';
import { Database } from '../../database';
import { deleteQuietly, ObjectStorage } from '../../storage/object-storage';
import { SignedFileUrls } from '../../storage/signed-file-urls';
import { AgentsRepository } from '../agents/agents.repository';
import { MessagingAgentsRepository } from '../messaging/messaging-agents.repository';
import { CreateKnowledgeBaseForm, UpdateKnowledgeBaseForm } from './dto/knowledge-base-forms';
import type {
  KnowledgeBaseDocumentDetailsDto,
  KnowledgeBaseDocumentDto,
  KnowledgeBaseDto,
  KnowledgeBaseSummaryDto,
  PassageDto,
} from './dto/knowledge-base.dto';
import type {
  ListKnowledgeBasesQuery,
  SearchKnowledgeBaseQuery,
} from './dto/knowledge-base-queries';
import { DEFAULT_KNOWLEDGE_BASE_LANGUAGE } from './knowledge-base-languages';
import { KnowledgeBasePassagesRepository } from './knowledge-base-passages.repository';
import { KnowledgeBaseUploadsService } from './knowledge-base-uploads.service';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import type { KnowledgeBaseDocumentRow, KnowledgeBaseRow } from './knowledge-bases.schema';
import { PassageRetriever } from './passage-retriever';

const NOT_FOUND = 'Knowledge base not found';

/** Knowledge bases of an organization: their documents, and search over their passages. */
@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly database: Database,
    private readonly repository: KnowledgeBasesRepository,
    private readonly uploads: KnowledgeBaseUploadsService,
    private readonly agents: AgentsRepository,
    private readonly messagingAgents: MessagingAgentsRepository,
    private readonly storage: ObjectStorage,
    private readonly fileUrls: SignedFileUrls,
    private readonly retriever: PassageRetriever,
    private readonly passages: KnowledgeBasePassagesRepository,
  ) {}

  async list(
    organizationId: string,
    query: ListKnowledgeBasesQuery,
  ): Promise<{ data: KnowledgeBaseSummaryDto[]; pagination: PaginationDto }> {
    const { rows, total } = await this.repository.list(organizationId, query);
    return { data: rows.map(toSummary), pagination: toPagination(total, query.page, query.limit) };
  }

  async get(organizationId: string, id: string): Promise<KnowledgeBaseDto> {
    return this.withDocuments(organizationId, await this.find(organizationId, id));
  }

  async create(organizationId: string, request: Request): Promise<KnowledgeBaseDto> {
    const { fields, documents } = await this.uploads.receive(request, CreateKnowledgeBaseForm);
    const base = await this.uploads.commit(documents, async () => {
      const row = await this.repository.create(organizationId, {
        name: fields.knowledgeBaseName,
        description: fields.description ?? '',
        language: fields.language ?? DEFAULT_KNOWLEDGE_BASE_LANGUAGE,
      });
      await this.uploads.attach(organizationId, row.id, documents);
      return row;
    });
    return this.withDocuments(organizationId, base);
  }

  async update(organizationId: string, id: string, request: Request): Promise<KnowledgeBaseDto> {
    // Before the body is read: a base out of reach should not cost the upload.
    await this.find(organizationId, id);
    const { fields, documents } = await this.uploads.receive(request, UpdateKnowledgeBaseForm);
    const base = await this.uploads.commit(documents, async () => {
      const row = await this.repository.touch(organizationId, id, {
        name: fields.knowledgeBaseName,
        description: fields.description,
        language: fields.language,
      });
      // Deleted while the files were arriving.
      if (!row) throw new NotFoundException(NOT_FOUND);
      // The row is held from `touch` on: the passages written meanwhile have the new language.
      if (fields.language !== undefined) {
        await this.passages.setLanguage(organizationId, id, fields.language);
      }
      await this.uploads.attach(organizationId, id, documents);
      return row;
    });
    return this.withDocuments(organizationId, base);
  }

  /**
   * The base, its documents, and their files; voice and messaging agents stop using it in the
   * same transaction.
   */
  async remove(organizationId: string, id: string): Promise<void> {
    const keys = await this.database.transaction(async () => {
      const deleted = await this.repository.delete(organizationId, id);
      if (!deleted) throw new NotFoundException(NOT_FOUND);
      await this.agents.forgetKnowledgeBase(organizationId, id);
      await this.messagingAgents.forgetKnowledgeBase(organizationId, id);
      return deleted;
    });
    await deleteQuietly(this.storage, keys);
  }

  async documents(organizationId: string, id: string): Promise<KnowledgeBaseDocumentDetailsDto[]> {
    await this.find(organizationId, id);
    const rows = await this.repository.documents(organizationId, id);
    return rows.map((row) => ({
      ...this.toDocument(row),
      size: row.size,
      contentType: row.contentType,
      status: row.status,
      statusReason: row.statusReason,
    }));
  }

  async removeDocument(organizationId: string, id: string, fileName: string): Promise<void> {
    const keys = await this.database.transaction(async () => {
      const base = await this.repository.touch(organizationId, id, {});
      if (!base) throw new NotFoundException(NOT_FOUND);
      const deleted = await this.repository.deleteDocumentsNamed(organizationId, id, [fileName]);
      if (deleted.length === 0) throw new NotFoundException('Document not found');
      return deleted;
    });
    await deleteQuietly(this.storage, keys);
  }

  async search(
    organizationId: string,
    id: string,
    query: SearchKnowledgeBaseQuery,
  ): Promise<PassageDto[]> {
    // Both at once: one database round trip less on the hot path of agents' lookups. The
    // search is scoped to the organization, so a base not found has found nothing anyway.
    const [, hits] = await Promise.all([
      this.find(organizationId, id),
      this.retriever.search(organizationId, id, query.q, query.limit),
    ]);
    return hits;
  }

  private async find(organizationId: string, id: string): Promise<KnowledgeBaseRow> {
    const base = await this.repository.findById(organizationId, id);
    if (!base) throw new NotFoundException(NOT_FOUND);
    return base;
  }

  /** The base as answered, with its documents (read once it is in hand, not found again). */
  private async withDocuments(
    organizationId: string,
    base: KnowledgeBaseRow,
  ): Promise<KnowledgeBaseDto> {
    const documents = await this.repository.documents(organizationId, base.id);
    return { ...toSummary(base), documents: documents.map((row) => this.toDocument(row)) };
  }

  private toDocument(row: KnowledgeBaseDocumentRow): KnowledgeBaseDocumentDto {
    return {
      fileName: row.fileName,
      url: this.fileUrls.signedUrl(row.storageKey, {
        fileName: row.fileName,
        contentType: row.contentType,
      }),
      uploadedAt: row.uploadedAt.toISOString(),
    };
  }
}

function toSummary(row: KnowledgeBaseRow): KnowledgeBaseSummaryDto {
  return {
    _id: row.id,
    knowledgeBaseName: row.name,
    description: row.description,
    language: row.language,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
