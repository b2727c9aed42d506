import { type SkillGame, SkillGames } from './skill-games.js';
import { rateMatch, SKILL_PRIOR, type Skill } from './skill-model.js';
import type { SkillMatch } from './skill-match.js';

export type { SkillGame } from './skill-games.js';

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
  private readonly games = new SkillGames();
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
    const games = this.games;
    const slot = games.add(gameId, finishedAt, players);
    this.writtenGames?.add(gameId);
    if (match === null) {
      // Saved as not counted: each player's estimate before and after.
      for (let i = 0; i < players.length; i++) {
        const { mu, sigma } = this.states.get(players[i]!) ?? SKILL_PRIOR;
        games.write(slot, i, mu, sigma, mu, sigma);
      }
      return [];
    }
    // One look-up a player: the states found (undefined for a new player) are written below.
    const before = players.map((id) => this.skillOf(id));
    const after = rateMatch(before, match);
    const changes: SkillChange[] = [];
    for (let i = 0; i < players.length; i++) {
      const id = players[i]!;
      const was = before[i]!;
      const now = after[i]!;
      games.write(slot, i, was.mu, was.sigma, now.mu, now.sigma);
      this.set(id, now, finishedAt);
      changes.push({ player: id, before: was, after: now });
    }
    return changes;
  }

  /**
   * A correction of a saved game: `match` is the game as corrected (null: it no longer counts).
   * A game saved before the book existed (no record) changes nothing.
   */
  correct(gameId: string, match: SkillMatch | null): SkillChange[] {
    const games = this.games;
    const slot = games.slotOf(gameId);
    if (slot < 0) return [];
    const finishedAt = games.finishedAt(slot);
    const count = games.playerCount(slot);
    const before: Skill[] = [];
    for (let i = 0; i < count; i++)
      before.push({ mu: games.number(slot, i, 0), sigma: games.number(slot, i, 1) });
    const corrected = match === null ? before : rateMatch(before, match);
    const changes: SkillChange[] = [];
    for (let i = 0; i < count; i++) {
      const id = games.player(slot, i);
      const was = { mu: games.number(slot, i, 2), sigma: games.number(slot, i, 3) };
      const now = corrected[i]!;
      games.write(slot, i, before[i]!.mu, before[i]!.sigma, now.mu, now.sigma);
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
      games: [...this.games.gameIds()].map((id) => ({ id, ...this.games.game(id)! })),
    };
  }

  /** A book resumed from a snapshot; from here on it tracks what it writes. */
  static restore(snapshot: SkillSnapshot): SkillBook {
    const book = new SkillBook();
    for (const { id, mu, sigma, lastPlayedAt } of snapshot.players)
      book.states.set(id, { mu, sigma, lastPlayedAt });
    for (const { id, finishedAt, players, skills } of snapshot.games) {
      const slot = book.games.add(id, finishedAt, players);
      for (let i = 0; i < players.length; i++)
        book.games.write(
          slot,
          i,
          skills[4 * i]!,
          skills[4 * i + 1]!,
          skills[4 * i + 2]!,
          skills[4 * i + 3]!,
        );
    }
    book.writtenPlayers = new Set();
    book.writtenGames = new Set();
    return book;
  }

  /** A saved game restored late (a fold that kept it as text until now): not a write. */
  addSaved(id: string, game: SkillGame): void {
    const slot = this.games.add(id, game.finishedAt, game.players);
    for (let i = 0; i < game.players.length; i++)
      this.games.write(
        slot,
        i,
        game.skills[4 * i]!,
        game.skills[4 * i + 1]!,
        game.skills[4 * i + 2]!,
        game.skills[4 * i + 3]!,
      );
  }

  /** From here on, the book lists as written only what it writes next. */
  markWritten(): void {
    this.writtenPlayers = new Set();
    this.writtenGames = new Set();
  }

  /** The players written since `restore` (every player for a fresh book). */
  changedPlayers(): (SkillState & { readonly id: string })[] {
    const ids = this.writtenPlayers ?? this.states.keys();
    return [...ids].map((id) => ({ id, ...this.states.get(id)! }));
  }

  /** The games written since `restore` (every game for a fresh book). */
  changedGames(): (SkillGame & { readonly id: string })[] {
    const ids = this.writtenGames ?? this.games.gameIds();
    return [...ids].map((id) => ({ id, ...this.games.game(id)! }));
  }

  /** A saved game (for stores and tests). */
  savedGame(gameId: string): SkillGame | undefined {
    return this.games.game(gameId);
  }
}
