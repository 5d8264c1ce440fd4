import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';

export class RetryRuleDto {
  @ApiProperty({
    example: 3,
    minimum: 0,
    maximum: 10,
    description:
      'Retries after endings with this outcome, per attempt series: the contact is called again ' +
      'while the endings with this outcome (the one just ended included) number at most this ' +
      'many. 0: never called again after this outcome.',
  })
  @IsInt()
  @Min(0)
  @Max(10)
  attempts!: number;

  @ApiPropertyOptional({
    example: 300,
    minimum: 0,
    maximum: 86_400,
    description:
      "Seconds from the end of the call to the earliest retry (absent: the batch's `delay`); " +
      'the retry then waits for the calling window as any other',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86_400)
  delay?: number;
}

/** One optional rule per retryOn word; an unknown outcome is refused (400). */
export class RetryPolicyDto {
  @ApiPropertyOptional({ type: RetryRuleDto, description: 'The line was busy' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  busy?: RetryRuleDto;

  @ApiPropertyOptional({
    type: RetryRuleDto,
    description: 'Nobody answered (callStatus no-answer)',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  no_answer?: RetryRuleDto;

  @ApiPropertyOptional({
    type: RetryRuleDto,
    description: 'The call could not connect or broke off',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  failed?: RetryRuleDto;

  @ApiPropertyOptional({
    type: RetryRuleDto,
    description: 'A voicemail answered (its message left or not)',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  voicemail?: RetryRuleDto;

  @ApiPropertyOptional({
    type: RetryRuleDto,
    description: 'A full mailbox answered, as the voice agent heard it',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  mailbox_full?: RetryRuleDto;

  @ApiPropertyOptional({
    type: RetryRuleDto,
    description: 'A fax machine answered, as the voice agent heard it',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryRuleDto)
  fax?: RetryRuleDto;
}
