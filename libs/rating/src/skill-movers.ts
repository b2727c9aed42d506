import type { LadderEvent } from '@ranking/contracts';

/**
 * Whose skill estimate an applied event may have moved: a game's players, a correction's (the
 * game's own: the fold refuses any other), or 'ladder' when the event does not name them (a
 * void correction) or moved any number (an annulment re-folds the ladder). Closes and
 * penalties move points only.
 */
export function skillMovers(event: LadderEvent): readonly string[] | 'ladder' {
  switch (event.type) {
    case 'game.finished':
      return event.players.map((p) => p.id);
    case 'game.corrected':
      return event.void === true || event.players === undefined
        ? 'ladder'
        : event.players.map((p) => p.id);
    case 'player.annulled':
      return 'ladder';
    case 'period.closed':
    case 'player.penalized':
      return [];
  }
}
