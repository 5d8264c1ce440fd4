import { Module } from '@nestjs/common';
import { BatchesRepository } from '../batches/batches.repository';
import { CallRecordsRepository } from '../call-records/call-records.repository';
import { ContactsExportService } from './contacts-export.service';
import { ContactsImportService } from './contacts-import.service';
import { ContactsUploadService } from './contacts-upload.service';
import { ContactsController } from './contacts.controller';

/** Contacts of a batch: JSON and CSV imports (also used by create-batch) and the CSV export. */
@Module({
  controllers: [ContactsController],
  // The batches repository itself rather than BatchesModule, which imports this module for
  // create-batch's contacts.
  providers: [
    BatchesRepository,
    CallRecordsRepository,
    ContactsImportService,
    ContactsUploadService,
    ContactsExportService,
  ],
  exports: [ContactsImportService],
})
export class ContactsModule {}
