import { DEAD_LETTER_HEADERS, UNPROCESSABLE } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  type DisconnectCounter,
  ladderRegistry,
  ReplayEngine,
  tallyDisconnects,
} from '@ranking/rating';
import { MaintenanceScenario, readTopics, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();
const LADDER = 'igame-gomoku';

/**
 * The maintenance consumer's poison-message path against a real fault: a PostgreSQL trigger
 * raises whenever one marked game is counted. That game is set aside (its own rejection row,
 * a dead letter marked with the consumer), every other game is counted once.
 */
describe('maintenance service: a message that cannot be applied (real Kafka and PostgreSQL)', () => {
  const scenario = new MaintenanceScenario(ladders);
  beforeAll(() => scenario.setUp());
  afterAll(() => scenario.tearDown());

  it('given a deterministic fault on one game, then it alone is dead-lettered and the counters are those of the stream without it', async () => {
    const lines = [
      ...generateEvents({
        seed: 62,
        events: 1200,
        ladders: [ladders.get(LADDER)!],
        playersPerLadder: 8,
        badShare: 0.02,
      }),
    ];
    const games: string[] = [];
    const all = new ReplayEngine(ladders);
    for (const line of lines) {
      const result = all.ingestLine(line);
      if (result.kind === 'accepted' && result.event.type === 'game.finished')
        games.push(result.event.id);
    }
    const poison = games[500]!;
    const poisonLine = lines.find((l) => l.includes(`"id":${JSON.stringify(poison)}`))!;
    const offline = new ReplayEngine(ladders);
    const expected = new Map<string, DisconnectCounter>();
    for (const line of lines.filter((l) => l !== poisonLine)) {
      const result = offline.ingestLine(line);
      if (result.kind === 'accepted' && result.event.type === 'game.finished')
        tallyDisconnects(ladders.get(LADDER)!, result.event, expected);
    }
    await scenario.world.db.query(`
      CREATE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.event_id = '${poison.replace(/'/g, "''")}' THEN
          RAISE EXCEPTION 'injected fault for %', NEW.event_id;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER injected_fault BEFORE INSERT ON disconnect_games
        FOR EACH ROW EXECUTE FUNCTION injected_fault();`);

    await scenario.world.produce(lines);
    const service = scenario.process();
    service.start();
    try {
      await waitFor(() => scenario.maintenanceDrained(), {
        timeout: 90_000,
        interval: 200,
        what: 'every partition to drain past the poison message',
      });
      await waitFor(() => scenario.outboxEmpty(), { what: 'the outbox to empty' });
      const rows = await scenario.world.db.query(
        'SELECT consumer, event_id, reason, detail FROM rejected_messages',
      );
      expect(rows).toEqual([
        {
          consumer: 'maintenance-service',
          event_id: poison,
          reason: UNPROCESSABLE,
          detail: expect.stringContaining('injected fault for'),
        },
      ]);
      expect(await scenario.counters(LADDER)).toEqual(
        new Map([...expected].filter(([, c]) => c.count + c.streak + c.penalties > 0)),
      );
      const { deadLetter } = scenario.world.topics;
      const dead = [
        ...(await readTopics(scenario.world.kafka, [deadLetter])).get(deadLetter)!.values(),
      ].flat();
      expect(dead).toHaveLength(1);
      const [letter] = dead;
      expect(letter!.value?.toString('utf8')).toBe(poisonLine);
      expect(letter!.headers[DEAD_LETTER_HEADERS.reason]).toBe(UNPROCESSABLE);
      expect(letter!.headers[DEAD_LETTER_HEADERS.consumer]).toBe('maintenance-service');
    } finally {
      await service.stop();
    }
  }, 180_000);
});
