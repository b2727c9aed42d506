import { createHash } from 'node:crypto';
import { type LadderEvent, parseEvent } from '@ranking/contracts';
import { generateEvents, type GeneratorOptions } from './event-generator.js';

const checksum = (options: GeneratorOptions): string => {
  const hash = createHash('sha256');
  for (const line of generateEvents(options)) hash.update(`${line}\n`);
  return hash.digest('hex');
};

const events = (options: GeneratorOptions): LadderEvent[] =>
  [...generateEvents(options)].flatMap((line) => {
    const parsed = parseEvent(line);
    return parsed.ok ? [parsed.event] : [];
  });

describe('generateEvents: annulments', () => {
  it('Given no annulmentShare, When a stream is generated, Then it is the stream generated before annulments existed', () => {
    // The sha-256 of this stream as the generator wrote it before `annulmentShare` was added.
    const before = '2c63a1fc86f343614cef9d9afc2065e2ce588536d004d723ddbbeddce7591695';
    expect(checksum({ seed: 7, events: 3000, closes: true })).toBe(before);
    expect(checksum({ seed: 7, events: 3000, closes: true, annulmentShare: 0 })).toBe(before);
  });

  it('Given an annulmentShare, When a stream is generated, Then it holds valid annulments of players who played on the ladder, since a few days back', () => {
    const stream = events({ seed: 8, events: 4000, annulmentShare: 0.01 });
    const annulments = stream.flatMap((e, i) => (e.type === 'player.annulled' ? [{ e, i }] : []));
    expect(annulments.length).toBeGreaterThan(10);
    for (const { e, i } of annulments) {
      const played = stream
        .slice(0, i)
        .some(
          (g) =>
            g.type === 'game.finished' &&
            g.ladder === e.ladder &&
            g.players.some((p) => p.id === e.player),
        );
      expect(played).toBe(true);
      const back = Date.parse(e.annulledAt) - Date.parse(e.since);
      expect(back).toBeGreaterThanOrEqual(0);
      expect(back).toBeLessThanOrEqual(72 * 3_600_000);
    }
  });
});
