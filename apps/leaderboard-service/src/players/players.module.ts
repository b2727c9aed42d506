import { Module } from '@nestjs/common';
import { LaddersModule } from '../ladders/ladders.module.js';
import { PlayerSearch } from './player-search.js';
import { PlayersController } from './players.controller.js';

/** A player's profile and rating history. */
@Module({ imports: [LaddersModule], controllers: [PlayersController], providers: [PlayerSearch] })
export class PlayersModule {}
