import type { PlayerReport, VoidReason } from '@ranking/contracts';
import type { GameRecord } from './game-record.js';
import type { GameSetting, RuleSet } from './rule-set.js';
import { settingOf } from './rule-set.js';

/**
 * Game records as short JSON text: positional arrays, the players' fields in the rule set's
 * `reportFields` order, the default setting as 0. A ladder keeps one per game for as long as
 * it lives, so the encoding is several times smaller than the objects (or keyed JSON). A
 * covered game has a trailing 1; others end at their void reason, as before annulments.
 */
type Encoded = [
  finishedAt: number,
  moves: number,
  setting: 0 | GameSetting,
  players: (string | number | boolean | null)[][],
  before: readonly number[],
  effects: readonly number[],
  voidOnArrival: VoidReason | null,
  covered?: 1,
];

const DEFAULT_SETTING = settingOf(undefined);

export function encodeRecord(record: GameRecord, rules: RuleSet): string {
  // Rows built by push, not `new Array(n)`: JSON.stringify serialises packed arrays on its fast
  // path and holey ones (made with holes, even if filled later) on a much slower one.
  const players: (string | number | boolean | null)[][] = [];
  for (const p of record.players) {
    const row: (string | number | boolean | null)[] = [p.id];
    for (const field of rules.reportFields) row.push(p[field] ?? null);
    players.push(row);
  }
  const encoded: Encoded = [
    record.finishedAt,
    record.moves,
    record.setting === DEFAULT_SETTING ? 0 : record.setting,
    players,
    record.before,
    record.effects,
    record.voidOnArrival,
  ];
  if (record.covered) encoded.push(1);
  return JSON.stringify(encoded);
}

export function decodeRecord(gameId: string, text: string, rules: RuleSet): GameRecord {
  const [finishedAt, moves, setting, players, before, effects, voidOnArrival, covered] = JSON.parse(
    text,
  ) as Encoded;
  return {
    gameId,
    finishedAt,
    moves,
    setting: setting === 0 ? DEFAULT_SETTING : setting,
    players: players.map(([id, ...values]) => {
      const report: Record<string, unknown> = { id };
      rules.reportFields.forEach((field, i) => {
        // finishOrder's null means "still holding cards"; other fields are simply absent.
        if (values[i] !== null || field === 'finishOrder') report[field] = values[i];
      });
      return report as unknown as PlayerReport;
    }),
    before,
    effects,
    voidOnArrival,
    covered: covered === 1,
  };
}
