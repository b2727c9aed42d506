import { Module } from '@nestjs/common';
import { AnnulCommand } from './commands/annul.command.js';
import { CorrectCommand } from './commands/correct.command.js';
import { ExportCommand } from './commands/export.command.js';
import { GenerateCommand } from './commands/generate.command.js';
import { IntegrityCommand } from './commands/integrity.command.js';
import {
  ProducerAddCommand,
  ProducerCommand,
  ProducerListCommand,
  ProducerRemoveCommand,
} from './commands/producer.command.js';
import { RedriveCommand } from './commands/redrive.command.js';
import { RebuildCommand } from './commands/rebuild.command.js';
import { RebuildCountersCommand } from './commands/rebuild-counters.command.js';
import { ReplayCommand } from './commands/replay.command.js';
import { SetupCommand } from './commands/setup.command.js';
import { SimulateCommand } from './commands/simulate.command.js';
import { WhatIfCommand } from './commands/whatif.command.js';
import {
  TokenCommand,
  TokenIssueCommand,
  TokenListCommand,
  TokenRevokeCommand,
} from './commands/token.command.js';

@Module({
  providers: [
    ReplayCommand,
    GenerateCommand,
    SetupCommand,
    ExportCommand,
    AnnulCommand,
    CorrectCommand,
    RebuildCommand,
    RebuildCountersCommand,
    SimulateCommand,
    WhatIfCommand,
    RedriveCommand,
    TokenCommand,
    TokenIssueCommand,
    TokenRevokeCommand,
    TokenListCommand,
    IntegrityCommand,
    ProducerCommand,
    ProducerAddCommand,
    ProducerListCommand,
    ProducerRemoveCommand,
  ],
})
export class CliModule {}
