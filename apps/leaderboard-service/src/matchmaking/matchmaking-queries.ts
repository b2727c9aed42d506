import { Injectable, NotFoundException } from '@nestjs/common';
import {
  ACTIVE_FOR_MS,
  type LadderConfig,
  matchQuality,
  type Skill,
  SKILL_PRIOR,
  winProbabilities,
} from '@ranking/rating';
import type { OpponentsAnswer, PredictionAnswer } from './matchmaking-answers.js';
import type { ProposedGame } from './predict-request.js';
import { indexed, SkillIndexes } from './skill-indexes.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const skillOf = (s: Skill): Skill => ({ mu: s.mu, sigma: s.sigma });

/** What the matchmaking API answers, from the skill indexes and PostgreSQL. */
@Injectable()
export class MatchmakingQueries {
  constructor(private readonly indexes: SkillIndexes) {}

  /**
   * The active players closest in mean to the player, each with the player's chance to beat
   * them and how even the game would be. The player is read from the index, or by primary key
   * when the index lacks them (newer than the index, or unknown to the ladder: 404).
   */
  async opponents(ladder: LadderConfig, player: string, limit: number): Promise<OpponentsAnswer> {
    const now = Date.now();
    const loaded = await this.indexes.of(ladder.id);
    const asking =
      loaded.index.get(player) ?? (await this.indexes.stored(ladder.id, [player])).map(indexed)[0];
    if (asking === undefined)
      throw new NotFoundException(
        `player "${player}" is not known on ladder "${ladder.id}" (no game of theirs was applied there)`,
      );
    const me = skillOf(asking);
    const activeSince = now - ACTIVE_FOR_MS;
    const opponents = loaded.index.closest(me.mu, limit, activeSince, player).map((o) => {
      const sides = [[me], [skillOf(o)]];
      return {
        player: o.player,
        skill: skillOf(o),
        lastPlayedAt: iso(o.lastPlayedAt!),
        winProbability: winProbabilities(sides)[0]!,
        matchQuality: matchQuality(sides),
      };
    });
    return {
      ladder: ladder.id,
      player,
      skill: me,
      activeSince: iso(activeSince),
      asOf: iso(loaded.checkedAt),
      opponents,
    };
  }

  /**
   * Each side's chance to win a proposed game and its match quality, from the players' stored
   * estimates (read by primary key: a few rows, as fresh as PostgreSQL). A player the ladder
   * does not know plays at the prior, marked `known: false`: a new account is a real opponent.
   */
  async predict(ladder: LadderConfig, game: ProposedGame): Promise<PredictionAnswer> {
    const rows = await this.indexes.stored(ladder.id, game.teams.flat());
    const stored = new Map(rows.map((r) => [r.player, indexed(r)]));
    const teams = game.teams.map((side) =>
      side.map((player) => {
        const known = stored.get(player);
        return { player, known: known !== undefined, skill: skillOf(known ?? SKILL_PRIOR) };
      }),
    );
    const skills = teams.map((side) => side.map((p) => p.skill));
    const wins = winProbabilities(skills);
    return {
      ladder: ladder.id,
      teams: teams.map((players, i) => ({ players, winProbability: wins[i]! })),
      matchQuality: matchQuality(skills),
    };
  }
}
