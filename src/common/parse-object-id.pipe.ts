import {
  BadRequestException,
  type ArgumentMetadata,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import { isObjectId } from './object-id';

/** Rejects a malformed id in a path with 400 before any query runs. */
@Injectable()
export class ParseObjectIdPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isObjectId(value)) {
      throw new BadRequestException(
        `Invalid ${metadata.data ?? 'id'} format: expected a 24-character hex id`,
      );
    }
    return value;
  }
}
