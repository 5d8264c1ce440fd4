import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { ANALYSIS_FIELD_TYPES, type AnalysisField } from '../agents.schema';

export const MAX_ANALYSIS_FIELDS = 50;
export const MAX_ANALYSIS_OPTIONS = 50;

/** `options` belongs to enum fields only (and they need it: see the validators below). */
const OptionsOnlyForEnum = (): PropertyDecorator =>
  ValidateBy({
    name: 'optionsOnlyForEnum',
    validator: {
      validate: (_value: unknown, args) => (args?.object as AnalysisFieldDto).type === 'enum',
      defaultMessage: () => 'options is only allowed when type is enum',
    },
  });

/** One value the post-call analysis extracts from each conversation. */
export class AnalysisFieldDto implements AnalysisField {
  @ApiProperty({
    example: 'appointment_booked',
    maxLength: 64,
    description:
      'Key of the value in the phone log’s `analysis` object: a letter, then letters, digits or ' +
      '_ (at most 64); unique within the agent',
  })
  @IsString()
  @Matches(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, {
    message: 'name must start with a letter and hold only letters, digits or _ (at most 64)',
  })
  name!: string;

  @ApiProperty({ enum: ANALYSIS_FIELD_TYPES, example: 'boolean' })
  @IsIn(ANALYSIS_FIELD_TYPES, {
    message: `type must be one of ${ANALYSIS_FIELD_TYPES.join(', ')}`,
  })
  type!: AnalysisField['type'];

  @ApiProperty({
    example: 'Whether the callee agreed to an appointment',
    maxLength: 1_000,
    description: 'What the value means: the model reads it to fill the field',
  })
  @IsString()
  @MaxLength(1_000)
  description!: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['morning', 'afternoon'],
    description: `The allowed values: required for type enum (1 to ${MAX_ANALYSIS_OPTIONS} distinct texts of 1 to 100 characters), refused for any other type`,
  })
  @ValidateIf((field: AnalysisFieldDto) => field.type === 'enum' || field.options !== undefined)
  @OptionsOnlyForEnum()
  @IsArray({ message: 'options must be a non-empty array for type enum' })
  @ArrayMinSize(1, { message: 'options must be a non-empty array for type enum' })
  @ArrayMaxSize(MAX_ANALYSIS_OPTIONS)
  @ArrayUnique({ message: 'options must not repeat a value' })
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  options?: string[];
}
