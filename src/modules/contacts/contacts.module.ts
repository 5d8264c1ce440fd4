import { Module } from '@nestjs/common';
import { BatchAccessModule } from '../batches/batch-access.module';
import { CallRecordsRepository } from '../call-records/call-records.repository';
import { ContactsExportService } from './contacts-export.service';
import { ContactsImportService } from './contacts-import.service';
import { ContactsUploadService } from './contacts-upload.service';
import { ContactsController } from './contacts.controller';

/** Contacts of a batch: JSON and CSV imports (also used by create-batch) and the CSV export. */
@Module({
  // The batch access rule alone rather than BatchesModule, which imports this module for
  // create-batch's contacts.
  imports: [BatchAccessModule],
  controllers: [ContactsController],
  providers: [
    CallRecordsRepository,
    ContactsImportService,
    ContactsUploadService,
    ContactsExportService,
  ],
  exports: [ContactsImportService],
})
export class ContactsModule {}
