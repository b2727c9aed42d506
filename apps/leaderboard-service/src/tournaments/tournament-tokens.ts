/** The configured tournaments (RANKING_TOURNAMENTS_FILE), checked at start-up. */
export const TOURNAMENTS = Symbol('tournaments');
