import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { TournamentGames } from '@ranking/persistence';
import {
  summarizeTournament,
  type TournamentConfig,
  type TournamentSummary,
  type TournamentView,
  tournamentLadders,
  tournamentView,
} from '@ranking/tournament';
import { TOURNAMENTS } from './tournament-tokens.js';

export type TournamentStatus = 'not-started' | 'in-progress' | 'finished';

export interface TournamentListEntry extends TournamentSummary {
  readonly ladders: readonly string[];
  readonly status: TournamentStatus;
  /** Games reported so far (play-off included). */
  readonly games: number;
  readonly qualified: number;
}

/** What GET /tournaments answers: the configured tournaments folded from the event store. */
@Injectable()
export class TournamentQueries {
  constructor(
    @Inject(TOURNAMENTS) private readonly tournaments: readonly TournamentConfig[],
    private readonly games: TournamentGames,
  ) {}

  async list(): Promise<{ tournaments: TournamentListEntry[] }> {
    const out: TournamentListEntry[] = [];
    for (const config of this.tournaments) {
      const { view, games } = await this.fold(config);
      out.push({
        ...summarizeTournament(config),
        ladders: tournamentLadders(config),
        status: games === 0 ? 'not-started' : view.complete ? 'finished' : 'in-progress',
        games,
        qualified: view.advancement.qualified.length,
      });
    }
    return { tournaments: out };
  }

  /** The tournament's view, or a 404 naming the known ids. */
  async view(id: string): Promise<TournamentView> {
    const config = this.tournaments.find((t) => t.id === id);
    if (!config)
      throw new NotFoundException(
        this.tournaments.length === 0
          ? `unknown tournament "${id}"; no tournaments are configured (RANKING_TOURNAMENTS_FILE)`
          : `unknown tournament "${id}"; known tournaments: ${this.tournaments.map((t) => t.id).join(', ')}`,
      );
    return (await this.fold(config)).view;
  }

  private async fold(config: TournamentConfig): Promise<{ view: TournamentView; games: number }> {
    const stored = await this.games.load(config.id, tournamentLadders(config));
    const events = stored.map((s) => s.event);
    return {
      view: tournamentView(config, events),
      games: events.filter((e) => e.type === 'game.finished').length,
    };
  }
}
