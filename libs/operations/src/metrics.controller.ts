import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ServiceMetrics } from './service-metrics.js';

/** `GET /metrics`: the Prometheus exposition of the service's registry. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(ServiceMetrics) private readonly metrics: ServiceMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
