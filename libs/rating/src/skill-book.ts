import { rateMatch, SKILL_PRIOR, type Skill } from './skill-model.js';
import type { SkillMatch } from './skill-match.js';

/** A player's skill estimate and when they last played a game it counted (epoch ms). */
export interface SkillState extends Skill {
  readonly lastPlayedAt: number | null;
}

/** How one event moved one player's estimate. */
export interface SkillChange {
  readonly player: string;
  readonly before: Skill;
  readonly after: Skill;
}

/**
 * What a game keeps for a later correction: its finish, then per player (in the event's order)
 * the estimate before the game and after it as it now counts (equal when it does not count).
 */
export interface SkillGame {
  readonly finishedAt: number;
  readonly players: readonly string[];
  /** mu, sigma before; mu, sigma after: four numbers per player. */
  readonly skills: readonly number[];
}

/** A skill book as plain data (JSON-safe). */
export interface SkillSnapshot {
  readonly players: readonly (SkillState & { readonly id: string })[];
  readonly games: readonly (SkillGame & { readonly id: string })[];
}

type MutableState = { -readonly [K in keyof SkillState]: SkillState[K] };

/**
 * The skill estimate of one ladder: a second projection of the ladder's log beside the official
 * fold, which hands it the games it counts (not void, not rejected, not covered by an
 * annulment; result-only games count). A correction moves the estimate the way the official
 * fold moves points: minus what the game does now, plus what it does corrected, both computed
 * from the estimates saved before the game: the mean by the difference, the uncertainty by the
 * ratio (ADR 19). With nothing played since, that equals the game having had its corrected
 * result from the start.
 */
export class SkillBook {
  private readonly states = new Map<string, MutableState>();
  private readonly games = new Map<string, SkillGame>();
  /** What changed since `restore` (null: a fresh book, where everything counts as changed). */
  private writtenPlayers: Set<string> | null = null;
  private writtenGames: Set<string> | null = null;

  /** The players' estimates, by id (players the estimate has not counted a game of are absent). */
  get players(): ReadonlyMap<string, SkillState> {
    return this.states;
  }

  /** A player's estimate (the prior when none counted yet), as a copy: the book's own changes. */
  skillOf(id: string): Skill {
    const state = this.states.get(id);
    return state === undefined ? SKILL_PRIOR : { mu: state.mu, sigma: state.sigma };
  }

  /** A game the ladder keeps: counted when `match` is given, else only saved for a correction. */
  game(
    gameId: string,
    players: readonly string[],
    match: SkillMatch | null,
    finishedAt: number,
  ): SkillChange[] {
    const before = players.map((id) => this.skillOf(id));
    const after = match === null ? before : rateMatch(before, match);
    const skills: number[] = [];
    for (let i = 0; i < players.length; i++)
      skills.push(before[i]!.mu, before[i]!.sigma, after[i]!.mu, after[i]!.sigma);
    this.games.set(gameId, { finishedAt, players: [...players], skills });
    this.writtenGames?.add(gameId);
    if (match === null) return [];
    const changes: SkillChange[] = [];
    for (let i = 0; i < players.length; i++) {
      const id = players[i]!;
      this.set(id, after[i]!, finishedAt);
      changes.push({ player: id, before: before[i]!, after: after[i]! });
    }
    return changes;
  }

  /**
   * A correction of a saved game: `match` is the game as corrected (null: it no longer counts).
   * A game saved before the book existed (no record) changes nothing.
   */
  correct(gameId: string, match: SkillMatch | null): SkillChange[] {
    const saved = this.games.get(gameId);
    if (saved === undefined) return [];
    const { players, finishedAt } = saved;
    const before: Skill[] = [];
    for (let i = 0; i < players.length; i++)
      before.push({ mu: saved.skills[4 * i]!, sigma: saved.skills[4 * i + 1]! });
    const corrected = match === null ? before : rateMatch(before, match);
    const skills: number[] = [];
    const changes: SkillChange[] = [];
    for (let i = 0; i < players.length; i++) {
      const id = players[i]!;
      const was = { mu: saved.skills[4 * i + 2]!, sigma: saved.skills[4 * i + 3]! };
      const now = corrected[i]!;
      skills.push(before[i]!.mu, before[i]!.sigma, now.mu, now.sigma);
      if (was.mu === now.mu && was.sigma === now.sigma) continue;
      const current = this.skillOf(id);
      // Nothing counted since (the estimate is still what the game left): the corrected one
      // itself, as the difference and ratio would give it but for rounding.
      const untouched = current.mu === was.mu && current.sigma === was.sigma;
      const next = untouched
        ? now
        : {
            mu: current.mu + (now.mu - was.mu),
            sigma: current.sigma * (now.sigma / was.sigma),
          };
      this.set(id, next, match === null ? null : finishedAt);
      changes.push({ player: id, before: current, after: next });
    }
    this.games.set(gameId, { finishedAt, players, skills });
    this.writtenGames?.add(gameId);
    return changes;
  }

  private set(id: string, skill: Skill, playedAt: number | null): void {
    const state = this.states.get(id);
    if (state === undefined) {
      this.states.set(id, { mu: skill.mu, sigma: skill.sigma, lastPlayedAt: playedAt });
    } else {
      state.mu = skill.mu;
      state.sigma = skill.sigma;
      if (playedAt !== null && (state.lastPlayedAt === null || playedAt > state.lastPlayedAt))
        state.lastPlayedAt = playedAt;
    }
    this.writtenPlayers?.add(id);
  }

  /** Every player whose estimate differs in `other` (a re-fold of the same ladder), as changes to it. */
  changesTo(other: SkillBook): SkillChange[] {
    const changes: SkillChange[] = [];
    for (const [id, next] of other.states) {
      const was = this.skillOf(id);
      if (was.mu === next.mu && was.sigma === next.sigma && this.states.has(id)) continue;
      changes.push({ player: id, before: was, after: { mu: next.mu, sigma: next.sigma } });
    }
    for (const [id, was] of this.states)
      if (!other.states.has(id))
        changes.push({ player: id, before: { mu: was.mu, sigma: was.sigma }, after: SKILL_PRIOR });
    return changes;
  }

  /** Plain data that `SkillBook.restore` turns back into the same book (copies). */
  snapshot(): SkillSnapshot {
    return {
      players: [...this.states].map(([id, s]) => ({ id, ...s })),
      games: [...this.games].map(([id, g]) => ({ id, ...g, skills: [...g.skills] })),
    };
  }

  /** A book resumed from a snapshot; from here on it tracks what it writes. */
  static restore(snapshot: SkillSnapshot): SkillBook {
    const book = new SkillBook();
    for (const { id, mu, sigma, lastPlayedAt } of snapshot.players)
      book.states.set(id, { mu, sigma, lastPlayedAt });
    for (const { id, ...game } of snapshot.games)
      book.games.set(id, { ...game, skills: [...game.skills] });
    book.writtenPlayers = new Set();
    book.writtenGames = new Set();
    return book;
  }

  /** The players written since `restore` (every player for a fresh book). */
  changedPlayers(): (SkillState & { readonly id: string })[] {
    const ids = this.writtenPlayers ?? this.states.keys();
    return [...ids].map((id) => ({ id, ...this.states.get(id)! }));
  }

  /** The games written since `restore` (every game for a fresh book). */
  changedGames(): (SkillGame & { readonly id: string })[] {
    const ids = this.writtenGames ?? this.games.keys();
    return [...ids].map((id) => ({ id, ...this.games.get(id)! }));
  }

  /** A saved game (for stores and tests). */
  savedGame(gameId: string): SkillGame | undefined {
    return this.games.get(gameId);
  }
}
