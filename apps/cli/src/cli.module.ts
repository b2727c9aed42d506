import { Module } from '@nestjs/common';
import { GenerateCommand } from './commands/generate.command.js';
import { ReplayCommand } from './commands/replay.command.js';

@Module({ providers: [ReplayCommand, GenerateCommand] })
export class CliModule {}
