import { Module } from '@nestjs/common';
import { ExportCommand } from './commands/export.command.js';
import { GenerateCommand } from './commands/generate.command.js';
import { ReplayCommand } from './commands/replay.command.js';
import { SetupCommand } from './commands/setup.command.js';

@Module({ providers: [ReplayCommand, GenerateCommand, SetupCommand, ExportCommand] })
export class CliModule {}
