// The v1 wire events of CONTRACT.md, as TypeScript types. The JSON Schema beside this file
// is the machine-readable source of truth; these types mirror it.

export type GameResult = 'win' | 'loss' | 'draw';
export type Side = 'black' | 'white' | 'red';
export type GameKind = 'territory' | 'capture';
export type PeriodName = 'daily' | 'weekly' | 'monthly';

export interface PlayerReport {
  id: string;
  result?: GameResult;
  side?: Side;
  first?: boolean;
  ip?: string;
  disconnected?: boolean;
  team?: string;
  seat?: number;
  remaining?: number;
  perfect?: boolean;
  tablePoints?: number;
  finishOrder?: number | null;
  handPoints?: number;
  captures?: number;
}

/**
 * Where a tournament game belongs (ADR 0009): optional, so v1 events without it stay valid.
 * When present, `context.tournament` must be true.
 */
export interface MatchReference {
  tournament: string;
  group: string;
  match: string;
}

/** The `reason` a referee gives a game.finished that records a no-show (the absent player loses). */
export const NO_SHOW_REASON = 'no-show';

export interface GameContext {
  kind?: GameKind;
  boardSize?: 9 | 13 | 15 | 19;
  handicap?: number;
  teacher?: boolean;
  tournament?: boolean;
  captureTarget?: 3 | 5;
  match?: MatchReference;
}

interface EventBase {
  id: string;
  ladder: string;
}

export interface GameFinished extends EventBase {
  type: 'game.finished';
  gameId: string;
  finishedAt: string;
  moves: number;
  reason?: string;
  context?: GameContext;
  players: PlayerReport[];
}

export interface GameCorrected extends EventBase {
  type: 'game.corrected';
  gameId: string;
  correctedAt: string;
  void?: boolean;
  players?: PlayerReport[];
  note?: string;
}

export interface PeriodClosed extends EventBase {
  type: 'period.closed';
  period: PeriodName;
  key: string;
  start: string;
  end: string;
}

export interface PlayerPenalized extends EventBase {
  type: 'player.penalized';
  player: string;
  points: number;
  reason: string;
  at: string;
}

/** A fair-play annulment: the player's games since `since` are re-folded as worth nothing. */
export interface PlayerAnnulled extends EventBase {
  type: 'player.annulled';
  player: string;
  since: string;
  annulledAt: string;
  note?: string;
}

export type LadderEvent =
  GameFinished | GameCorrected | PeriodClosed | PlayerPenalized | PlayerAnnulled;
export type LadderEventType = LadderEvent['type'];

export const EVENT_TYPES: readonly LadderEventType[] = [
  'game.finished',
  'game.corrected',
  'period.closed',
  'player.penalized',
  'player.annulled',
];
