import { BadRequestException, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../auth/access';
import { type AppConfig, InjectConfig } from '../../config';
import { BatchAccessService } from '../batches/batch-access.service';
import { assertTakesContacts, ContactsImportService } from './contacts-import.service';
import { CSV_FILE_FIELD, withCsvUpload } from './csv-upload';
import type { ImportContactsDto } from './dto/import-contacts.dto';
import type { ImportReport } from './import-report';

/** Routes an append-contacts request by its content type: JSON contacts or a CSV upload. */
@Injectable()
export class ContactsUploadService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly access: BatchAccessService,
    private readonly importer: ContactsImportService,
  ) {}

  async importRequest(
    principal: Principal,
    batchId: string,
    body: ImportContactsDto,
    request: Request,
  ): Promise<ImportReport> {
    const { organizationId } = principal;
    if (request.is('multipart/form-data')) {
      // Before reading the upload: a batch out of reach or cancelled should not cost the file.
      await this.assertAppendable(principal, batchId);
      return withCsvUpload(request, this.config.storage.uploadMaxBytes, {}, ({ file }) => {
        if (!file) {
          throw new BadRequestException(
            `The request needs a CSV file in a field named ${CSV_FILE_FIELD}`,
          );
        }
        return this.importer.importCsv(organizationId, batchId, file.open());
      });
    }
    if (request.is('application/json')) {
      if (!body.contacts) {
        throw new BadRequestException(
          'contacts is required: an array of { phoneNumber, ...fields } (or upload a CSV as multipart/form-data)',
        );
      }
      await this.assertAppendable(principal, batchId);
      return this.importer.importRows(organizationId, batchId, body.contacts);
    }
    throw new UnsupportedMediaTypeException(
      'Send application/json with contacts, or multipart/form-data with a CSV in the file field',
    );
  }

  /**
   * 404 for a batch out of the principal's reach, 409 for a cancelled one: checked before any
   * contact is read. The import checks the status again under the batch row's lock.
   */
  private async assertAppendable(principal: Principal, batchId: string): Promise<void> {
    assertTakesContacts(await this.access.findAccessible(principal, batchId));
  }
}
