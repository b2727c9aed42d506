import { Module } from '@nestjs/common';
import { GenerateCommand } from './commands/generate.command.js';
import { ReplayCommand } from './commands/replay.command.js';
import { SetupCommand } from './commands/setup.command.js';

@Module({ providers: [ReplayCommand, GenerateCommand, SetupCommand] })
export class CliModule {}
