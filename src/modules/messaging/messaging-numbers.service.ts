import { Injectable } from '@nestjs/common';
import { isMobileNumber, toE164 } from '../../common/phone-number';
import type {
  MessagingNumberValidityDto,
  ValidateMessagingNumberDto,
} from './dto/validate-messaging-number.dto';
import { MessagingNumbersRepository } from './messaging-numbers.repository';

/**
 * Whether a number can be messaged. The platform has no "is this number on it" check, so
 * valid means: a well-formed, dialable mobile number that the platform has not reported
 * undeliverable (error 131026) to this organization.
 */
@Injectable()
export class MessagingNumbersService {
  constructor(private readonly numbers: MessagingNumbersRepository) {}

  async validate(
    organizationId: string,
    dto: ValidateMessagingNumberDto,
  ): Promise<MessagingNumberValidityDto> {
    const e164 = toE164(dto.phoneNumber);
    if (!e164) return { phoneNumber: `+${dto.phoneNumber.replace(/\D/g, '')}`, isValid: false };
    const isValid =
      isMobileNumber(e164) && !(await this.numbers.isUndeliverable(organizationId, e164));
    return { phoneNumber: e164, isValid };
  }
}
