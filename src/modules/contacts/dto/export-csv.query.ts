import { ApiProperty } from '@nestjs/swagger';
import { IsObjectId } from '../../../common/is-object-id.validator';

export class ExportCsvQuery {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd', description: 'The batch to export' })
  @IsObjectId()
  batchId!: string;
}
