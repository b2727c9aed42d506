export * from './tournament-config.js';
export * from './reported-games.js';
export * from './match-score.js';
export * from './group-standings.js';
export * from './advancement.js';
export * from './tournament-view.js';
