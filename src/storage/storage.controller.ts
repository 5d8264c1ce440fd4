import { Controller, Get, Header, Param, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access';
import { ApiErrors } from '../common/api-errors.decorator';
import { DownloadQuery } from './dto/download.query';
import { STORAGE_KEY_PATTERN } from './object-storage';
import { FILES_ROUTE } from './signed-file-urls';
import { StorageDownloadService } from './storage-download.service';

@ApiTags('Files')
@Controller(FILES_ROUTE)
export class StorageController {
  constructor(private readonly downloads: StorageDownloadService) {}

  @Get(':key')
  @Public()
  @Header('X-Content-Type-Options', 'nosniff')
  // An uploaded HTML file must never run as a page of this origin.
  @Header('Content-Security-Policy', "sandbox; default-src 'none'")
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    summary: 'Download a stored file through a signed URL',
    description:
      'The URLs come from the API (a knowledge base document’s `url`); no credentials are ' +
      'needed, the signature is the authorization. Served as an attachment. 403: the ' +
      'signature does not match the URL, or the URL has expired. 404: the file was deleted.',
  })
  @ApiParam({
    name: 'key',
    description: 'Storage key',
    schema: { pattern: STORAGE_KEY_PATTERN.source },
  })
  @ApiOkResponse({
    description: 'The file’s bytes, with the media type of the URL',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(400, 403, 404)
  downloadFile(@Param('key') key: string, @Query() query: DownloadQuery): Promise<StreamableFile> {
    return this.downloads.download(key, query);
  }
}
