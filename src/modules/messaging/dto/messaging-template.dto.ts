import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { TemplateParameterFormat } from '../graph/graph.types';
import type { TemplateVariableComponent } from '../template-variables';

const PARAMETER_FORMATS = ['POSITIONAL', 'NAMED'];

export class MessagingTemplateDto {
  @ApiProperty({ example: '1279048723318420', description: 'The platform’s template id' })
  id!: string;

  @ApiProperty({ example: 'order_update' })
  name!: string;

  @ApiProperty({ example: 'en_US' })
  language!: string;

  @ApiProperty({ example: 'UTILITY', description: 'UTILITY, MARKETING or AUTHENTICATION' })
  category!: string;

  @ApiProperty({ example: 'APPROVED', description: 'APPROVED, PENDING, REJECTED, PAUSED, …' })
  status!: string;

  @ApiProperty({ enum: PARAMETER_FORMATS, example: 'POSITIONAL' })
  parameterFormat!: TemplateParameterFormat;

  @ApiProperty({ example: '102290129340398', description: 'Business account of the template' })
  businessAccountId!: string;
}

export class TemplateVariableDto {
  @ApiProperty({ enum: ['header', 'body', 'button'], example: 'body' })
  component!: TemplateVariableComponent;

  @ApiPropertyOptional({ example: 1, description: 'Position of `{{1}}`-style variables' })
  index?: number;

  @ApiPropertyOptional({ example: 'first_name', description: 'Name of `{{name}}` variables' })
  name?: string;

  @ApiPropertyOptional({
    example: 0,
    description: 'Position of the button among the template’s buttons (button variables)',
  })
  buttonIndex?: number;

  @ApiPropertyOptional({
    example: 'Ana',
    description: 'The example registered with the template, to prefill',
  })
  example?: string;
}

export class TemplateVariablesDto {
  @ApiProperty({ example: '1279048723318420' })
  templateId!: string;

  @ApiProperty({ example: 'order_update' })
  name!: string;

  @ApiProperty({ example: 'en_US' })
  language!: string;

  @ApiProperty({ enum: PARAMETER_FORMATS, example: 'POSITIONAL' })
  parameterFormat!: TemplateParameterFormat;

  @ApiProperty({ type: [TemplateVariableDto] })
  variables!: TemplateVariableDto[];
}
