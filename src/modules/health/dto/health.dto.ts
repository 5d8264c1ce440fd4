import { ApiProperty } from '@nestjs/swagger';

const STATES = ['up', 'down', 'not configured'];

export class LivenessDto {
  @ApiProperty({ example: 12.5, description: 'Seconds since the process started' })
  uptimeSeconds!: number;
}

export class ReadinessDto {
  @ApiProperty({ enum: STATES, example: 'up' })
  database!: string;

  @ApiProperty({ enum: STATES, example: 'not configured' })
  redis!: string;
}
