import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class ValidateMessagingNumberDto {
  @ApiProperty({
    example: '+14155552671',
    description: 'With its country code; `+`, spaces, dots, dashes and brackets are allowed',
  })
  @IsString()
  @Matches(/^\s*\+?[\d\s().-]{6,24}\s*$/, {
    message: 'phoneNumber must be digits with the country code, `+` optional',
  })
  phoneNumber!: string;
}

export class MessagingNumberValidityDto {
  @ApiProperty({
    example: '+14155552671',
    description: 'E.164 when the number parses, else the digits as sent with a leading `+`',
  })
  phoneNumber!: string;

  @ApiProperty({ example: true })
  isValid!: boolean;
}
