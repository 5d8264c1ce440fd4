import { BadRequestException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../auth/access';
import type { WithEnvelopeFields } from '../../common/envelope.decorators';
import { validateBody } from '../../common/validation';
import { type AppConfig, InjectConfig } from '../../config';
import { ContactsImportService } from '../contacts/contacts-import.service';
import type { UploadFields } from '../../common/form-fields';
import { withCsvUpload } from '../contacts/csv-upload';
import type { ImportReport } from '../contacts/import-report';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { BatchesService } from './batches.service';
import { createBatchFormToBody } from './dto/create-batch-form';
import { CreateBatchDto } from './dto/create-batch.dto';

const OPERATION = 'createBatch';

/** The new batch id as `data`, and the import report when contacts were sent. */
export type CreatedBatch = WithEnvelopeFields<string, { contacts: ImportReport }>;

/**
 * create-batch with its contacts: a JSON body (`contacts` array) or a multipart form (fields
 * first, then an optional CSV in `file`). The batch, every contact row and the Idempotency-Key's
 * stored answer commit in one transaction: rejected rows are reported, but a request-level
 * failure (validation, a bad or oversize file) leaves no batch behind.
 */
@Injectable()
export class CreateBatchService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
    private readonly batches: BatchesService,
    private readonly importer: ContactsImportService,
  ) {}

  async create(principal: Principal, request: Request): Promise<CreatedBatch> {
    const key = request.header('idempotency-key');
    if (request.is('multipart/form-data')) return this.fromForm(principal, request, key);
    return this.fromDto(principal, await validateBody(CreateBatchDto, request.body), key);
  }

  /** A request whose fields are the whole fingerprint: JSON, or a form without a file. */
  private fromDto(
    principal: Principal,
    dto: CreateBatchDto,
    key: string | undefined,
  ): Promise<CreatedBatch> {
    const { contacts } = dto;
    return this.idempotency.run(principal.organizationId, OPERATION, key, dto, () =>
      this.insert(
        principal,
        dto,
        contacts &&
          ((batchId) => this.importer.importRows(principal.organizationId, batchId, contacts)),
      ),
    );
  }

  /**
   * A form: the fields are validated when the file part begins (a bad field should not cost the
   * upload), the file is received whole, and only then does the transaction start. Its
   * fingerprint is the validated fields plus the SHA-256 of the file's bytes; without a file,
   * the fields alone, as JSON.
   */
  private fromForm(
    principal: Principal,
    request: Request,
    key: string | undefined,
  ): Promise<CreatedBatch> {
    const organizationId = principal.organizationId;
    const beforeFile = async (fields: UploadFields) => void (await formToDto(fields));
    return withCsvUpload(
      request,
      this.config.storage.uploadMaxBytes,
      { beforeFile },
      async ({ fields, lateFields, file }) => {
        const dto = await formToDto(fields);
        if (!file) return this.fromDto(principal, dto, key);
        if (lateFields.length > 0) {
          throw new BadRequestException(
            `Send the form fields before the file: ${[...new Set(lateFields)].join(', ')} came after it`,
          );
        }
        const fingerprinted = { fields: dto, fileSha256: file.sha256 };
        return this.idempotency.run(organizationId, OPERATION, key, fingerprinted, () =>
          this.insert(principal, dto, (batchId) =>
            this.importer.importCsv(organizationId, batchId, file.open()),
          ),
        );
      },
    );
  }

  /** The batch, then its contacts; runs inside the caller's transaction. */
  private async insert(
    principal: Principal,
    dto: CreateBatchDto,
    importContacts?: (batchId: string) => Promise<ImportReport>,
  ): Promise<CreatedBatch> {
    const data = await this.batches.create(principal, dto);
    return importContacts ? { data, contacts: await importContacts(data) } : { data };
  }
}

function formToDto(fields: UploadFields): Promise<CreateBatchDto> {
  return validateBody(CreateBatchDto, createBatchFormToBody(fields));
}
