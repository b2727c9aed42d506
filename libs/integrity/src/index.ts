export * from './duel.js';
export * from './duels-from-events.js';
export * from './normal-quantile.js';
export * from './outside-strength.js';
export * from './win-trading.js';
export * from './record-tail.js';
export * from './integrity-report.js';
