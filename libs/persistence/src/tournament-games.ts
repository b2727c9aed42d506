import type { LadderEvent } from '@ranking/contracts';
import type { StoredEvent } from './event-store-repository.js';
import type { Sql } from './sql.js';

/**
 * Reads one tournament's events from the event store: its games (context.match.tournament)
 * and the corrections of those games that came after them, in log order (ladder by ladder,
 * each in its own order; a match is played on one ladder, so its games keep their order).
 */
export class TournamentGames {
  constructor(private readonly sql: Sql) {}

  async load(tournament: string, ladders: readonly string[]): Promise<StoredEvent[]> {
    const games = await this.sql.query<{
      ladder: string;
      seq: string;
      game_id: string;
      payload: string;
    }>(
      `SELECT ladder, seq, game_id, payload FROM event_store
       WHERE tournament = $1 AND ladder = ANY($2::text[])
       ORDER BY ladder, seq`,
      [tournament, ladders],
    );
    const corrections =
      games.length === 0
        ? []
        : await this.sql.query<{ ladder: string; seq: string; payload: string }>(
            `SELECT c.ladder, c.seq, c.payload
             FROM event_store c
             JOIN (SELECT ladder, game_id, min(seq) AS seq
                   FROM unnest($1::text[], $2::text[], $3::bigint[]) AS g(ladder, game_id, seq)
                   GROUP BY ladder, game_id) g
               ON c.ladder = g.ladder AND c.game_id = g.game_id AND c.seq > g.seq
             WHERE c.type = 'game.corrected'
             ORDER BY c.ladder, c.seq`,
            [games.map((g) => g.ladder), games.map((g) => g.game_id), games.map((g) => g.seq)],
          );
    return [...games, ...corrections]
      .map((r) => ({
        ladder: r.ladder,
        seq: Number(r.seq),
        event: JSON.parse(r.payload) as LadderEvent,
      }))
      .sort((x, y) => (x.ladder < y.ladder ? -1 : x.ladder > y.ladder ? 1 : x.seq - y.seq));
  }
}
