import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'email' })
  field!: string;

  @ApiProperty({ example: 'email must be an email' })
  message!: string;
}

/** The body of every error answer (contract-additions §2). */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 'Validation failed' })
  message!: string;

  @ApiProperty({ example: false })
  status!: boolean;

  @ApiProperty({ example: 400, description: 'Equals the HTTP status' })
  code!: number;

  @ApiProperty({ example: 'email must be an email', description: 'What was wrong' })
  errorMessage!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Present on validation failures' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ description: 'On 5xx answers: the id of the matching log line' })
  requestId?: string;
}
