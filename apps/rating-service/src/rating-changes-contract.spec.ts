import { readRatingChanges } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { boardStandingOf } from '@ranking/persistence';
import { ladderRegistry, ratingChangeMessage, ReplayEngine } from '@ranking/rating';
import { listedMessageText } from './batch-writes.js';

describe('the rating-changes messages the rating service publishes', () => {
  it('given a generated log over every built-in ladder (closes and corrections), then every message passes the contract and reads back as written', () => {
    const engine = new ReplayEngine(ladderRegistry(), { simulate: false });
    const kinds = new Set<string>();
    const types = new Set<string>();
    let seq = 0;
    let previousSeq = 0;
    for (const line of generateEvents({
      seed: 18,
      events: 4_000,
      days: 60,
      correctionShare: 0.05,
      closes: true,
    })) {
      const result = engine.ingestLine(line);
      if (result.kind !== 'accepted' || result.outcome.status !== 'applied') continue;
      const { changes } = result.outcome;
      // As the rating service lists them: each player's board fields and estimate after the event.
      const fold = engine.ladderFolds.get(result.event.ladder)!;
      const skill = new Map((result.outcome.skill ?? []).map((s) => [s.player, s]));
      const moved = changes.map((change) => ({
        change,
        standing: boardStandingOf(fold.players.get(change.player)!),
        skill: skill.get(change.player) ?? null,
      }));
      const place = { seq: ++seq, previousSeq };
      previousSeq = seq;
      const message = ratingChangeMessage(result.event, place, moved, changes.length);
      const read = readRatingChanges(JSON.stringify(message));
      expect(read).toEqual({ ok: true, message });
      // The service writes listed messages directly: the same text, byte for byte.
      if (message.type !== 'period.closed')
        expect(listedMessageText(result.event, place, moved)).toBe(JSON.stringify(message));
      for (const change of changes) kinds.add(change.why.kind);
      types.add(message.type);
    }
    // The log exercised the kinds of message and the reasons rule sets give, not one or two.
    expect([...types].sort()).toEqual(['game.corrected', 'game.finished', 'period.closed']);
    expect(kinds.size).toBeGreaterThanOrEqual(10);
  });
});
