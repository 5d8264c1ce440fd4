import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { BadRequestException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../auth/access';
import type { WithEnvelopeFields } from '../../common/envelope.decorators';
import { validateBody } from '../../common/validation';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { ContactsImportService } from '../contacts/contacts-import.service';
import { streamCsvUpload, type UploadFields, type UploadForm } from '../contacts/csv-upload';
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
 * first, then an optional CSV in `file`, streamed). The batch and every contact row commit in
 * one transaction: rejected rows are reported, but a request-level failure (validation, a bad
 * or oversize file) leaves no batch behind.
 */
@Injectable()
export class CreateBatchService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
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
      this.database.transaction(() =>
        this.insert(
          principal,
          dto,
          contacts &&
            ((batchId) => this.importer.importRows(principal.organizationId, batchId, contacts)),
        ),
      ),
    );
  }

  /**
   * Idempotency of an upload: the fingerprint is the validated fields plus the SHA-256 of the
   * file's bytes, hashed as they stream by; it is compared with the key's record before the
   * commit (see IdempotencyService.runStreamed). Without a file, fields alone, as JSON.
   */
  private fromForm(
    principal: Principal,
    request: Request,
    key: string | undefined,
  ): Promise<CreatedBatch> {
    const organizationId = principal.organizationId;
    return streamCsvUpload(request, this.config.storage.uploadMaxBytes, {
      withoutFile: async (fields) => this.fromDto(principal, await formToDto(fields), key),
      file: async (file, form) => {
        // Before the file is read: a bad field should not cost the upload.
        const dto = await formToDto(form.fields);
        const csv = sha256Tap(file);
        const fingerprinted = () => ({ fields: dto, fileSha256: csv.digest() });
        return this.idempotency.runStreamed(organizationId, OPERATION, key, {
          read: async () => {
            await finished(csv.stream.resume());
            await bodyRead(form);
            return fingerprinted();
          },
          work: async () => {
            const result = await this.insert(principal, dto, (batchId) =>
              this.importer.importCsv(organizationId, batchId, csv.stream),
            );
            await bodyRead(form);
            return { request: fingerprinted(), result };
          },
        });
      },
    });
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

/** Waits for the end of the request body; fields after the file were not validated: 400. */
async function bodyRead(form: UploadForm): Promise<void> {
  const late = await form.ended;
  if (late.length > 0) {
    throw new BadRequestException(
      `Send the form fields before the file: ${[...new Set(late)].join(', ')} came after it`,
    );
  }
}

/** The bytes of `source` unchanged, hashed as they pass. */
function sha256Tap(source: Readable): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // A failed source (over the size limit) fails the tapped stream with the same error.
  pipeline(source, stream, () => undefined);
  let digest: string | undefined;
  return { stream, digest: () => (digest ??= hash.digest('hex')) };
}
