import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { LivenessDto, ReadinessDto } from './dto/health.dto';
import { HealthService } from './health.service';

@ApiTags('Health')
@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @ApiEnvelope({ message: 'Alive', type: LivenessDto })
  live(): LivenessDto {
    return { uptimeSeconds: Math.round(process.uptime() * 10) / 10 };
  }

  @Get('ready')
  @ApiEnvelope({ message: 'Ready', type: ReadinessDto })
  @ApiErrors(503)
  ready(): Promise<ReadinessDto> {
    return this.health.readiness();
  }
}
