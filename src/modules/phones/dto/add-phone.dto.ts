import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsNumber, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsHeaderCredential, IsOptionalNotNull } from '../../../common/dto-rules';
import { IsEd25519PublicKey } from '../../../common/is-ed25519-public-key.validator';
import { IsObjectId } from '../../../common/is-object-id.validator';
import { INTEGRATIONS, type Integration } from '../../telephony/telephony.types';

export class AddPhoneDto {
  @ApiProperty({
    example: '65f1c0ffee0123456789abcd',
    description: 'Owner: a user of the organization',
  })
  @IsObjectId()
  userId!: string;

  @ApiProperty({
    example: '+14155551234',
    description:
      'With country code; `+` optional. Must be owned by the provider account. Stored in E.164.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  phoneNumber!: string;

  @ApiProperty({
    enum: INTEGRATIONS,
    description: 'provider_one = Plivo, provider_two = Twilio, provider_three = Telnyx',
  })
  @IsIn(INTEGRATIONS)
  integration!: Integration;

  @ApiProperty({
    example: 'your-auth-token',
    writeOnly: true,
    description:
      'Auth token (provider_one, provider_two) or API key (provider_three). Stored encrypted, never returned.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  @IsHeaderCredential()
  authToken!: string;

  @ApiProperty({
    example: 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    description:
      'Auth id (provider_one), account SID (provider_two), or Call Control Application id (provider_three; ' +
      'send an empty string to have one created).',
  })
  @IsString()
  @MaxLength(128)
  @IsHeaderCredential()
  accSId!: string;

  @ApiPropertyOptional({
    example: 'hxBl01p4c/aSa2ep5sch9aWeQgMwziPhIpFHntyYIFs=',
    description:
      "provider_three only: the Telnyx account's public key (Mission Control → Keys & Credentials → " +
      "Public Key), base64 of 32 bytes, which verifies the Ed25519 signature of this number's " +
      "callbacks. Without it the server's PROVIDER_THREE_PUBLIC_KEY verifies them, which fits only " +
      'numbers of the account that key belongs to. No Telnyx API returns it, so it cannot be checked ' +
      'here: a wrong key means every callback of the number is refused (401). Not secret: listed ' +
      'with the number.',
  })
  @IsOptionalNotNull()
  @IsEd25519PublicKey()
  publicKey?: string;

  @ApiPropertyOptional({
    example: 5,
    minimum: 0.1,
    maximum: 1000,
    description:
      "The provider account's calls per second, when it is not the provider's default (Plivo 2, " +
      'Twilio 1, Telnyx 1): every number of the account, in every batch and organization, shares ' +
      'it, so the provider never queues a call to ring later than it was allowed. Given here, it ' +
      "replaces the account's value; left out, the account keeps what it had. Listed with each " +
      'number as `accountCallsPerSecond`.',
  })
  @IsOptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.1)
  @Max(1000)
  accountCallsPerSecond?: number;
}
