import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
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
  authToken!: string;

  @ApiProperty({
    example: 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    description:
      'Auth id (provider_one), account SID (provider_two), or Call Control Application id (provider_three; ' +
      'send an empty string to have one created).',
  })
  @IsString()
  @MaxLength(128)
  accSId!: string;
}
