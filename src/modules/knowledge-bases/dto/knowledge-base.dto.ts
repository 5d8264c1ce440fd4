import { ApiProperty } from '@nestjs/swagger';
import { LANGUAGE_DESCRIPTION } from './knowledge-base-forms';
import { KNOWLEDGE_BASE_LANGUAGES, type KnowledgeBaseLanguage } from '../knowledge-base-languages';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../knowledge-bases.schema';

export class KnowledgeBaseDocumentDto {
  @ApiProperty({ example: 'pricing.pdf', description: 'Display name, unique within the base' })
  fileName!: string;

  @ApiProperty({
    example:
      'https://api.example.com/api/files/kbdoc-65f1c0ffee0123456789abcd-0a1b2c3d4e5f6071?expires=1767225600&name=pricing.pdf&type=application%2Fpdf&signature=kJ3v',
    description:
      'Signed download URL: no credentials needed, valid for STORAGE_URL_TTL_SECONDS (an hour ' +
      'by default) from this response; fetch the base again for a fresh one',
  })
  url!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  uploadedAt!: string;
}

/** One document as the documents list gives it. */
export class KnowledgeBaseDocumentDetailsDto extends KnowledgeBaseDocumentDto {
  @ApiProperty({ example: 48213, description: 'Bytes' })
  size!: number;

  @ApiProperty({
    example: 'application/pdf',
    description: 'Decided from the file’s bytes and name',
  })
  contentType!: string;

  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    example: 'ready',
    description:
      '`processing`: its text is being extracted and indexed; `ready`: searchable; `failed`: ' +
      'its text could not be extracted (statusReason says why)',
  })
  status!: DocumentStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why extraction failed; null unless status is failed',
  })
  statusReason!: string | null;
}

export class KnowledgeBaseSummaryDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'Product FAQ' })
  knowledgeBaseName!: string;

  @ApiProperty({ example: 'Answers to the questions customers ask most' })
  description!: string;

  @ApiProperty({
    enum: KNOWLEDGE_BASE_LANGUAGES,
    example: 'english',
    description: LANGUAGE_DESCRIPTION,
  })
  language!: KnowledgeBaseLanguage;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-22T10:05:00.000Z' })
  updatedAt!: string;
}

export class KnowledgeBaseDto extends KnowledgeBaseSummaryDto {
  @ApiProperty({
    type: [KnowledgeBaseDocumentDto],
    description: 'Every document of the base, oldest upload first',
  })
  documents!: KnowledgeBaseDocumentDto[];
}

export class PassageDto {
  @ApiProperty({ example: 'pricing.pdf', description: 'The document the passage comes from' })
  fileName!: string;

  @ApiProperty({
    example: 'Refunds are paid within thirty days of the request…',
    description: 'About 1,000 characters of the document’s text',
  })
  text!: string;

  @ApiProperty({
    example: 0.032,
    description:
      'Relevance: the reciprocal rank fusion of its places by words and by meaning (each ' +
      'place p counts 1/(60 + p), half that by the offline embedding); higher is better, ' +
      'comparable across bases',
  })
  score!: number;
}
