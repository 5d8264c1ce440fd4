import { ApiProperty } from '@nestjs/swagger';
import { INTEGRATIONS } from '../../telephony/telephony.types';

export class PhoneNumberDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '65f1c0ffee0123456789abce' })
  userId!: string;

  @ApiProperty({ example: '+14155551234' })
  phoneNumber!: string;

  @ApiProperty({ enum: INTEGRATIONS })
  integration!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;
}

export class PhoneNumberListItemDto extends PhoneNumberDto {
  @ApiProperty({ enum: ['active', 'inactive'], description: 'Only active numbers are dialed from' })
  status!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'hxBl01p4c/aSa2ep5sch9aWeQgMwziPhIpFHntyYIFs=',
    description:
      'provider_three: the Telnyx public key the number was added with, which verifies its ' +
      "callbacks (public, shown so it can be compared with Mission Control's); null: the server's " +
      'PROVIDER_THREE_PUBLIC_KEY verifies them, or another integration.',
  })
  publicKey!: string | null;

  @ApiProperty({
    example: 1,
    description:
      "Calls per second of the number's provider account, shared by all its numbers (the " +
      "provider's default unless add-phone set `accountCallsPerSecond`)",
  })
  accountCallsPerSecond!: number;
}

export class DeletePhoneResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  deletedId!: string;
}

export class WiringDriftDto {
  @ApiProperty({ example: 'VoiceUrl' })
  field!: string;

  @ApiProperty({ nullable: true, type: String })
  expected!: string | null;

  @ApiProperty({ nullable: true, type: String })
  actual!: string | null;
}

export class PhoneVerificationDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '+14155551234' })
  phoneNumber!: string;

  @ApiProperty({ enum: INTEGRATIONS })
  integration!: string;

  @ApiProperty({ description: 'The stored credentials are still accepted by the provider' })
  credentialsValid!: boolean;

  @ApiProperty({ description: 'The number is still on the provider account' })
  numberOwned!: boolean;

  @ApiProperty({ description: 'The provider still sends this number’s calls to Switchboard' })
  webhooksInSync!: boolean;

  @ApiProperty({
    type: [WiringDriftDto],
    description: 'What the provider holds that differs from our wiring',
  })
  drift!: WiringDriftDto[];

  @ApiProperty({ description: 'True when `repair=true` re-applied the wiring' })
  repaired!: boolean;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  checkedAt!: string;
}
