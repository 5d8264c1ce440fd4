import { BadRequestException, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import { type AppConfig, InjectConfig } from '../../config';
import { ContactsImportService } from './contacts-import.service';
import { streamCsvUpload } from './csv-upload';
import type { ImportContactsDto } from './dto/import-contacts.dto';
import type { ImportReport } from './import-report';

/** Routes an append-contacts request by its content type: JSON contacts or a CSV upload. */
@Injectable()
export class ContactsUploadService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly importer: ContactsImportService,
  ) {}

  async importRequest(
    organizationId: string,
    batchId: string,
    body: ImportContactsDto,
    request: Request,
  ): Promise<ImportReport> {
    if (request.is('multipart/form-data')) {
      // Before reading the upload: an unknown batch should not cost the whole file.
      await this.importer.assertBatch(organizationId, batchId);
      return streamCsvUpload(request, this.config.storage.uploadMaxBytes, {
        file: (file) => this.importer.importCsv(organizationId, batchId, file),
      });
    }
    if (request.is('application/json')) {
      if (!body.contacts) {
        throw new BadRequestException(
          'contacts is required: an array of { phoneNumber, ...fields } (or upload a CSV as multipart/form-data)',
        );
      }
      await this.importer.assertBatch(organizationId, batchId);
      return this.importer.importRows(organizationId, batchId, body.contacts);
    }
    throw new UnsupportedMediaTypeException(
      'Send application/json with contacts, or multipart/form-data with a CSV in the file field',
    );
  }
}
