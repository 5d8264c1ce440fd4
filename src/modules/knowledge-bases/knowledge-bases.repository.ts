import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import { escapeLike } from '../../common/page.query';
import { Database } from '../../database';
import type { KnowledgeBaseLanguage } from './knowledge-base-languages';
import {
  knowledgeBaseDocuments,
  knowledgeBases,
  type KnowledgeBaseDocumentRow,
  type KnowledgeBaseRow,
} from './knowledge-bases.schema';

export type NewDocument = Pick<
  typeof knowledgeBaseDocuments.$inferInsert,
  'fileName' | 'storageKey' | 'size' | 'contentType'
>;

const baseInOrganization = (organizationId: string, id: string) =>
  and(eq(knowledgeBases.organizationId, organizationId), eq(knowledgeBases.id, id));

const documentsOf = (organizationId: string, knowledgeBaseId: string) =>
  and(
    eq(knowledgeBaseDocuments.organizationId, organizationId),
    eq(knowledgeBaseDocuments.knowledgeBaseId, knowledgeBaseId),
  );

/** Queries of knowledge bases and their documents; each one starts from the organization. */
@Injectable()
export class KnowledgeBasesRepository {
  constructor(private readonly database: Database) {}

  /** One page, newest first, of the bases whose name contains `search` (case-insensitive). */
  async list(
    organizationId: string,
    { page, limit, search }: { page: number; limit: number; search?: string },
  ): Promise<{ rows: KnowledgeBaseRow[]; total: number }> {
    const where = and(
      eq(knowledgeBases.organizationId, organizationId),
      search ? ilike(knowledgeBases.name, `%${escapeLike(search)}%`) : undefined,
    );
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(knowledgeBases)
        .where(where)
        .orderBy(desc(knowledgeBases.createdAt), desc(knowledgeBases.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(knowledgeBases).where(where),
    ]);
    return { rows, total };
  }

  /**
   * Those of `ids` that are bases of the organization. Inside a transaction each one found stays
   * locked (FOR KEY SHARE) until it ends: a concurrent delete of the base waits, then sees the
   * agent that names it and removes the id from it, so no agent keeps a deleted base.
   */
  async lockExistingIds(organizationId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.database.db
      .select({ id: knowledgeBases.id })
      .from(knowledgeBases)
      .where(
        and(eq(knowledgeBases.organizationId, organizationId), inArray(knowledgeBases.id, ids)),
      )
      .for('key share');
    return rows.map(({ id }) => id);
  }

  async findById(organizationId: string, id: string): Promise<KnowledgeBaseRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(knowledgeBases)
      .where(baseInOrganization(organizationId, id));
    return row;
  }

  async create(
    organizationId: string,
    values: { name: string; description: string; language: KnowledgeBaseLanguage },
  ): Promise<KnowledgeBaseRow> {
    const [row] = await this.database.db
      .insert(knowledgeBases)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /**
   * Applies the changes and moves updatedAt; inside a transaction this also holds the base's
   * row until the commit, which serializes uploads to one base. Undefined when it is not in the
   * organization (or was deleted meanwhile).
   */
  async touch(
    organizationId: string,
    id: string,
    changes: { name?: string; description?: string; language?: KnowledgeBaseLanguage },
  ): Promise<KnowledgeBaseRow | undefined> {
    const [row] = await this.database.db
      .update(knowledgeBases)
      .set({ ...changes, updatedAt: new Date() })
      .where(baseInOrganization(organizationId, id))
      .returning();
    return row;
  }

  /**
   * Inside a transaction: the base's language, its row held (FOR SHARE) until the commit, so a
   * change of language (which updates the row, then the passages) waits for the passages being
   * written to be in, or is seen by them. Undefined when the base is gone.
   */
  async lockLanguage(
    organizationId: string,
    id: string,
  ): Promise<KnowledgeBaseLanguage | undefined> {
    const [row] = await this.database.db
      .select({ language: knowledgeBases.language })
      .from(knowledgeBases)
      .where(baseInOrganization(organizationId, id))
      .for('share');
    return row?.language;
  }

  /** Deletes the base (its documents and passages cascade); the storage keys they had. */
  async delete(organizationId: string, id: string): Promise<string[] | undefined> {
    const keys = await this.database.db
      .select({ key: knowledgeBaseDocuments.storageKey })
      .from(knowledgeBaseDocuments)
      .where(documentsOf(organizationId, id));
    const deleted = await this.database.db
      .delete(knowledgeBases)
      .where(baseInOrganization(organizationId, id))
      .returning({ id: knowledgeBases.id });
    return deleted.length > 0 ? keys.map(({ key }) => key) : undefined;
  }

  /** The base's documents, oldest upload first. */
  documents(organizationId: string, knowledgeBaseId: string): Promise<KnowledgeBaseDocumentRow[]> {
    return this.database.db
      .select()
      .from(knowledgeBaseDocuments)
      .where(documentsOf(organizationId, knowledgeBaseId))
      .orderBy(asc(knowledgeBaseDocuments.uploadedAt), asc(knowledgeBaseDocuments.id));
  }

  async insertDocuments(
    organizationId: string,
    knowledgeBaseId: string,
    documents: NewDocument[],
  ): Promise<KnowledgeBaseDocumentRow[]> {
    if (documents.length === 0) return [];
    return this.database.db
      .insert(knowledgeBaseDocuments)
      .values(documents.map((document) => ({ ...document, organizationId, knowledgeBaseId })))
      .returning();
  }

  /** Deletes the documents with these names; the storage keys they had. */
  async deleteDocumentsNamed(
    organizationId: string,
    knowledgeBaseId: string,
    fileNames: string[],
  ): Promise<string[]> {
    if (fileNames.length === 0) return [];
    const rows = await this.database.db
      .delete(knowledgeBaseDocuments)
      .where(
        and(
          documentsOf(organizationId, knowledgeBaseId),
          inArray(knowledgeBaseDocuments.fileName, fileNames),
        ),
      )
      .returning({ key: knowledgeBaseDocuments.storageKey });
    return rows.map(({ key }) => key);
  }

  async findDocument(
    organizationId: string,
    documentId: string,
  ): Promise<KnowledgeBaseDocumentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(knowledgeBaseDocuments)
      .where(
        and(
          eq(knowledgeBaseDocuments.organizationId, organizationId),
          eq(knowledgeBaseDocuments.id, documentId),
        ),
      );
    return row;
  }

  /**
   * Ends a document's processing (ready, or failed with its reason) if it is still processing;
   * false when it is gone or already ended.
   */
  async finishDocument(
    organizationId: string,
    documentId: string,
    outcome: { status: 'ready' } | { status: 'failed'; reason: string },
  ): Promise<boolean> {
    const rows = await this.database.db
      .update(knowledgeBaseDocuments)
      .set({
        status: outcome.status,
        statusReason: outcome.status === 'failed' ? outcome.reason : null,
      })
      .where(
        and(
          eq(knowledgeBaseDocuments.organizationId, organizationId),
          eq(knowledgeBaseDocuments.id, documentId),
          eq(knowledgeBaseDocuments.status, 'processing'),
        ),
      )
      .returning({ id: knowledgeBaseDocuments.id });
    return rows.length > 0;
  }
}
