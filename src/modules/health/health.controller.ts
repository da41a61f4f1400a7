import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SkipThrottle } from '../../platform/http/rate-limit';
import { Public } from '../../platform/http/access';
import { HealthService } from './health.service';

export class HealthResponse {
  @ApiProperty() ok: boolean;
  @ApiProperty({ example: '0.1.0' }) version: string;
  @ApiProperty({ enum: ['healthy', 'degraded'] }) status: 'healthy' | 'degraded';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @SkipThrottle()
  @ApiOkResponse({ type: HealthResponse, description: 'PostgreSQL, the event store and the queue backend answer' })
  @ApiServiceUnavailableResponse({ type: HealthResponse, description: 'one of them does not' })
  async get(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const report = await this.health.check();
    reply.status(report.ok ? 200 : 503);
    return report;
  }
}
