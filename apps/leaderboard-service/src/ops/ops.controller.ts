import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/** A bare endpoint: the ceiling the benchmark compares the API with. */
@ApiExcludeController()
@Controller()
export class OpsController {
  @Get('ping')
  ping(): string {
    return 'pong';
  }
}
