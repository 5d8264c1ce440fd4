import {
  type ArgumentMetadata,
  BadRequestException,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import { PLATFORM_ID } from './dto/messaging-integration.dto';

/** Rejects a malformed platform id (phone number, template) in a path with 400. */
@Injectable()
export class ParsePlatformIdPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!PLATFORM_ID.test(value)) {
      throw new BadRequestException(
        `Invalid ${metadata.data ?? 'id'} format: expected the platform's numeric id`,
      );
    }
    return value;
  }
}
