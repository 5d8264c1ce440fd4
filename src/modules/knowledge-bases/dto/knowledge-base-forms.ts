import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { DOCUMENTS_FIELD, MAX_FILES_PER_REQUEST } from '../document-upload';
import { SUPPORTED_TYPES_TEXT } from '../document-type';
import {
  DEFAULT_KNOWLEDGE_BASE_LANGUAGE,
  KNOWLEDGE_BASE_LANGUAGES,
  type KnowledgeBaseLanguage,
} from '../knowledge-base-languages';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2_000;

export const LANGUAGE_DESCRIPTION =
  'The language of its documents and questions, for full-text search: a PostgreSQL text ' +
  'search configuration (stemming, so "refunds" finds "refund", and stop words), or `simple` ' +
  '(words as written) for a base mixing languages. Changing it re-indexes the base’s passages.';

/** The text fields of the create form: the name is required. */
export class CreateKnowledgeBaseForm {
  @ApiProperty({ example: 'Product FAQ', maxLength: MAX_NAME_LENGTH })
  @IsString()
  @Length(1, MAX_NAME_LENGTH)
  @Matches(/\S/, { message: 'knowledgeBaseName must not be blank' })
  knowledgeBaseName!: string;

  @ApiPropertyOptional({ example: 'Answers customers ask for', maxLength: MAX_DESCRIPTION_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional({
    enum: KNOWLEDGE_BASE_LANGUAGES,
    default: DEFAULT_KNOWLEDGE_BASE_LANGUAGE,
    example: 'french',
    description: LANGUAGE_DESCRIPTION,
  })
  @IsOptional()
  @IsIn(KNOWLEDGE_BASE_LANGUAGES, {
    message: `language must be one of: ${KNOWLEDGE_BASE_LANGUAGES.join(', ')}`,
  })
  language?: KnowledgeBaseLanguage;
}

/** The text fields of the update form: all optional, only those sent change. */
export class UpdateKnowledgeBaseForm extends PartialType(CreateKnowledgeBaseForm) {}

const FILES_DESCRIPTION =
  `Documents, the field repeated once per file (at most ${MAX_FILES_PER_REQUEST}): ` +
  `${SUPPORTED_TYPES_TEXT}. The type is decided from the bytes (and, for text, the name); ` +
  'anything else answers 415. All files of a request together may hold UPLOAD_MAX_BYTES ' +
  '(413 past it, and nothing is kept). A file whose name is already in the base replaces that ' +
  'document; of two files with one name in a request, the later one is kept. Names are ' +
  'reduced to their last path segment without control characters.';

// An empty `required` array is invalid OpenAPI (swagger-parser refuses it): leave it out.
const formSchema = (required: string[]) => ({
  type: 'object',
  ...(required.length > 0 ? { required } : {}),
  properties: {
    knowledgeBaseName: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH },
    description: { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH },
    language: {
      type: 'string',
      enum: [...KNOWLEDGE_BASE_LANGUAGES],
      description: `${LANGUAGE_DESCRIPTION} Default on create: ${DEFAULT_KNOWLEDGE_BASE_LANGUAGE}.`,
    },
    [DOCUMENTS_FIELD]: {
      type: 'array',
      maxItems: MAX_FILES_PER_REQUEST,
      items: { type: 'string', format: 'binary' },
      description: FILES_DESCRIPTION,
    },
  },
});

const formBody = (required: string[]) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: formSchema(required),
      encoding: { [DOCUMENTS_FIELD]: { style: 'form', explode: true } },
    },
  },
});

export const CREATE_KNOWLEDGE_BASE_BODY = formBody(['knowledgeBaseName']);
export const UPDATE_KNOWLEDGE_BASE_BODY = formBody([]);
