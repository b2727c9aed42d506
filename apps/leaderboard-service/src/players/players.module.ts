import { Module } from '@nestjs/common';
import { LaddersModule } from '../ladders/ladders.module.js';
import { PlayersController } from './players.controller.js';

/** A player's profile and rating history. */
@Module({ imports: [LaddersModule], controllers: [PlayersController] })
export class PlayersModule {}
