import { Inject, Injectable } from '@nestjs/common';
import { StandingsReader } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { boardEntry, rowJson } from '../boards/board-row.js';
import { API_STANDINGS } from '../tokens.js';

/**
 * Players of a ladder by id prefix, from PostgreSQL (every player who has played, ranked or
 * not), each as a board row without a rank: the same rating, record and title or level.
 */
@Injectable()
export class PlayerSearch {
  constructor(@Inject(API_STANDINGS) private readonly standings: StandingsReader) {}

  async byPrefix(ladder: LadderConfig, prefix: string, limit: number): Promise<string> {
    const rows = await this.standings.livePlayersByPrefix(ladder.id, prefix, limit);
    const players = rows.map((r) => rowJson(null, r.player, boardEntry(r, ladder).data, ladder));
    return `{"ladder":${JSON.stringify(ladder.id)},"prefix":${JSON.stringify(prefix)},"players":[${players.join(',')}]}`;
  }
}
