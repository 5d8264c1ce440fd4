import { Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { PaginationDto } from '../../common/page.query';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { CREATE_KNOWLEDGE_BASE_BODY, UPDATE_KNOWLEDGE_BASE_BODY } from './dto/knowledge-base-forms';
import { ListKnowledgeBasesQuery, SearchKnowledgeBaseQuery } from './dto/knowledge-base-queries';
import {
  KnowledgeBaseDocumentDetailsDto,
  KnowledgeBaseDto,
  KnowledgeBaseSummaryDto,
  PassageDto,
} from './dto/knowledge-base.dto';
import { KnowledgeBasesService } from './knowledge-bases.service';

const BASE_ID = {
  name: 'knowledgeBaseId',
  description: 'Knowledge base id (24 hex characters)',
};

const UPLOAD_ERRORS =
  '400: invalid field, a file outside the `files` field, too many files, malformed body. ' +
  '413: the files together exceed UPLOAD_MAX_BYTES. 415: a file that is not a supported ' +
  'document, or a body that is not multipart/form-data. Nothing is kept when the request fails.';

const EXTRACTION =
  'Each new document is `processing` until its text has been extracted and indexed in the ' +
  'background, then `ready` (searchable) or `failed` (see the documents list).';

@ApiTags('Knowledge bases')
@Controller('api/knowledgeBase')
export class KnowledgeBasesController {
  constructor(private readonly knowledgeBases: KnowledgeBasesService) {}

  @Post('createKnowledgeBase')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Create a knowledge base, optionally with documents',
    description: `multipart/form-data. ${EXTRACTION} ${UPLOAD_ERRORS}`,
    requestBody: CREATE_KNOWLEDGE_BASE_BODY,
  })
  @ApiConsumes('multipart/form-data')
  @ApiEnvelope({ status: 201, message: 'Knowledge base created', type: KnowledgeBaseDto })
  @ApiErrors(400, 413, 415)
  createKnowledgeBase(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<KnowledgeBaseDto> {
    return this.knowledgeBases.create(principal.organizationId, request);
  }

  @Get()
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'List knowledge bases',
    description:
      'Newest first. page defaults to 1, limit to 10 (at most 100); search keeps the bases ' +
      'whose name contains it. data is the page; `pagination` beside it gives the totals. ' +
      '400: invalid query.',
  })
  @ApiEnvelope({
    message: 'Knowledge bases fetched',
    type: [KnowledgeBaseSummaryDto],
    fields: { pagination: { type: PaginationDto, description: 'Totals of the listing' } },
  })
  @ApiErrors(400)
  listKnowledgeBases(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListKnowledgeBasesQuery,
  ): Promise<{ data: KnowledgeBaseSummaryDto[]; pagination: PaginationDto }> {
    return this.knowledgeBases.list(principal.organizationId, query);
  }

  @Get(':knowledgeBaseId')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Get a knowledge base with its documents',
    description: 'Each document has a signed download URL, valid for STORAGE_URL_TTL_SECONDS.',
  })
  @ApiParam(BASE_ID)
  @ApiEnvelope({ message: 'Knowledge base fetched', type: KnowledgeBaseDto })
  @ApiErrors(400, 404)
  getKnowledgeBase(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
  ): Promise<KnowledgeBaseDto> {
    return this.knowledgeBases.get(principal.organizationId, id);
  }

  @Put(':knowledgeBaseId')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Update a knowledge base, adding documents',
    description:
      'multipart/form-data; every field optional: only those sent change. Existing documents ' +
      'are kept (removed only by the document delete), except that a file with the name of ' +
      `an existing document replaces it. ${EXTRACTION} 404: unknown base (checked before the ` +
      `files are read). ${UPLOAD_ERRORS}`,
    requestBody: UPDATE_KNOWLEDGE_BASE_BODY,
  })
  @ApiConsumes('multipart/form-data')
  @ApiParam(BASE_ID)
  @ApiEnvelope({ message: 'Knowledge base updated', type: KnowledgeBaseDto })
  @ApiErrors(400, 404, 413, 415)
  updateKnowledgeBase(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
    @Req() request: Request,
  ): Promise<KnowledgeBaseDto> {
    return this.knowledgeBases.update(principal.organizationId, id, request);
  }

  @Delete(':knowledgeBaseId')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Delete a knowledge base for good',
    description:
      'Its documents, their stored files and their passages go with it, and every agent that ' +
      'used it stops using it (its id leaves their knowledgeBaseIds).',
  })
  @ApiParam(BASE_ID)
  @ApiEnvelope({ message: 'Knowledge base deleted' })
  @ApiDeleteErrors()
  deleteKnowledgeBase(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
  ): Promise<void> {
    return this.knowledgeBases.remove(principal.organizationId, id);
  }

  @Get(':knowledgeBaseId/documents')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'List the documents of a knowledge base',
    description: `Oldest upload first, with size, type and processing status. ${EXTRACTION}`,
  })
  @ApiParam(BASE_ID)
  @ApiEnvelope({ message: 'Documents fetched', type: [KnowledgeBaseDocumentDetailsDto] })
  @ApiErrors(400, 404)
  listKnowledgeBaseDocuments(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
  ): Promise<KnowledgeBaseDocumentDetailsDto[]> {
    return this.knowledgeBases.documents(principal.organizationId, id);
  }

  @Delete(':knowledgeBaseId/documents/:fileName')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Delete one document of a knowledge base',
    description:
      'By its fileName as the base lists it (URL-encoded). Its stored file and passages go ' +
      'with it. 404: unknown base or no document of that name.',
  })
  @ApiParam(BASE_ID)
  @ApiParam({ name: 'fileName', description: 'The document’s fileName', example: 'pricing.pdf' })
  @ApiEnvelope({ message: 'Document deleted' })
  @ApiDeleteErrors()
  deleteKnowledgeBaseDocument(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
    @Param('fileName') fileName: string,
  ): Promise<void> {
    return this.knowledgeBases.removeDocument(principal.organizationId, id, fileName);
  }

  @Get(':knowledgeBaseId/search')
  @Authenticated({ permission: 'knowledgeBase' })
  @ApiOperation({
    summary: 'Search the passages of a knowledge base',
    description:
      'Hybrid search over the passages (about 1,000 characters each, overlapping) of the ' +
      'base’s ready documents, best first: what voice and messaging agents are given. Two ' +
      'rankings are fused by reciprocal rank: full text (passages holding any word of q, in ' +
      'the base’s `language`, the rarer words weighing more, as BM25 weighs them; of a word ' +
      'in more than 1,000 passages, 1,000 are ranked) and meaning (cosine similarity of ' +
      'embeddings: from the embeddings endpoint, EMBEDDINGS_API_URL or LLM_API_URL, else the ' +
      'offline embedding; when the endpoint fails or is slow, the search goes on without ' +
      'it). A question unrelated to every passage may find nothing. ' +
      '400: q missing or blank, limit outside 1–50.',
  })
  @ApiParam(BASE_ID)
  @ApiEnvelope({ message: 'Passages found', type: [PassageDto] })
  @ApiErrors(400, 404)
  searchKnowledgeBase(
    @CurrentPrincipal() principal: Principal,
    @Param('knowledgeBaseId', ParseObjectIdPipe) id: string,
    @Query() query: SearchKnowledgeBaseQuery,
  ): Promise<PassageDto[]> {
    return this.knowledgeBases.search(principal.organizationId, id, query);
  }
}
