import { Module } from '@nestjs/common';
import { BoardsModule } from '../boards/boards.module.js';
import { OpsController } from './ops.controller.js';

/** /health, /metrics and the bare /ping. */
@Module({ imports: [BoardsModule], controllers: [OpsController] })
export class OpsModule {}
