import { parseEvent } from '@ranking/contracts';
import { tournamentView } from '@ranking/tournament';
import { generateTournament, tournamentConfigFor } from './tournament-generator.js';

describe('tournament generator', () => {
  const config = tournamentConfigFor({ id: 'gen-cup', ladder: 'qq-gomoku' });

  it('writes a whole tournament: every group and the play-off group decided, 16 through', () => {
    const events = generateTournament({
      seed: 7,
      config,
      noShowShare: 0.1,
      correctionShare: 0.1,
      extraGameShare: 0.2,
    });
    const view = tournamentView(config, events);
    expect(view.groups).toHaveLength(6);
    expect(view.groups.every((g) => g.complete && g.matches.length === 10)).toBe(true);
    expect(view.playoff?.players).toHaveLength(6);
    expect(view.playoff?.matches).toHaveLength(15);
    expect(view.complete).toBe(true);
    expect(view.ignored).toEqual([]);
    // Through: 12 from the groups, plus the play-off's 4 unless a tie there needs a play-off.
    expect(
      view.advancement.qualified.length + view.advancement.playoffNeeded.length,
    ).toBeGreaterThanOrEqual(16);
    const all = view.groups.flatMap((g) => g.matches).flatMap((m) => m.games);
    expect(all.some((g) => g.noShow)).toBe(true);
    expect(all.some((g) => g.note === 'void')).toBe(true);
    expect(all.some((g) => g.note === 'after-end')).toBe(true);
  });

  it('writes events the contract accepts, and the same log for the same seed', () => {
    const events = generateTournament({ seed: 3, config });
    for (const event of events)
      expect(parseEvent(JSON.stringify(event))).toMatchObject({ ok: true });
    expect(generateTournament({ seed: 3, config })).toEqual(events);
    expect(generateTournament({ seed: 4, config })).not.toEqual(events);
  });
});
