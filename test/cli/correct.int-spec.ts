import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateEvent } from '@ranking/contracts';
import { topicLayout, topicNames } from '@ranking/kafka';
import { jsonLines, testKafka, uniqueName, waitFor } from '@ranking/testing';
import type { KafkaMessage } from 'kafkajs';

const run = promisify(execFile);

/** `ranking correct` against the real broker, on topics of its own. */
describe('ranking correct (real Kafka)', () => {
  const prefix = `${uniqueName('t')}.`;
  const topics = topicNames(prefix);
  const kafka = testKafka();
  let dir: string;
  const correct = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', 'correct', ...args], {
      env: { ...process.env, KAFKA_TOPIC_PREFIX: prefix, LOG_LEVEL: 'info' },
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ranking-correct-'));
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
    await admin.disconnect();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topics) });
    await admin.disconnect();
  });

  /** Every message on the ladder-events topic, read from the beginning. */
  async function consumeAll(count: number): Promise<KafkaMessage[]> {
    const consumer = kafka.consumer({ groupId: uniqueName('g') });
    const seen: KafkaMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: topics.ladderEvents, fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => {
          seen.push(message);
          return Promise.resolve();
        },
      });
      await waitFor(() => seen.length >= count, { timeout: 60_000, what: `${count} messages` });
    } finally {
      await consumer.disconnect();
    }
    return seen;
  }

  const published = async () => {
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topics.ladderEvents);
    await admin.disconnect();
    return offsets.reduce((n, p) => n + Number(p.high), 0);
  };

  it('publishes a void and a players correction, keyed by ladder, valid by the contract', async () => {
    const players = join(dir, 'players.json');
    await writeFile(
      players,
      JSON.stringify([
        { id: 'alice', result: 'loss' },
        { id: 'bob', result: 'win' },
      ]),
    );
    const voided = await correct(
      '--ladder',
      'igame-gomoku',
      '--game',
      'g-1',
      '--void',
      '--note',
      'same person on both sides',
    );
    const replaced = await correct(
      '--ladder',
      'qq-gomoku',
      '--game',
      'g-2',
      '--players',
      players,
      '--note',
      'result reversed on appeal',
    );
    // The result alone on stdout; the log line (JSON on stderr, no terminal here) names it too.
    const voidId = voided.stdout.trim();
    const playersId = replaced.stdout.trim();
    expect(voidId).toMatch(/^correction:igame-gomoku:g-1:[0-9a-f-]{36}$/);
    expect(playersId).toMatch(/^correction:qq-gomoku:g-2:/);
    expect(jsonLines(voided.stderr).filter((l) => l.context === 'correct')).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        context: 'correct',
        message: expect.stringMatching(
          new RegExp(`^published game.corrected of igame-gomoku/g-1 to ${topics.ladderEvents} `),
        ),
        ladder: 'igame-gomoku',
        game: 'g-1',
        eventId: voidId,
        topic: topics.ladderEvents,
        partition: expect.any(Number),
        offset: expect.any(String),
      },
    ]);

    const messages = await consumeAll(2);
    expect(messages).toHaveLength(2);
    const byId = new Map(
      messages.map((m) => {
        const body = JSON.parse(m.value!.toString('utf8'));
        expect(validateEvent(body)).toMatchObject({ ok: true });
        return [body.id as string, { key: m.key!.toString('utf8'), body }];
      }),
    );
    expect(byId.get(voidId)).toEqual({
      key: 'igame-gomoku',
      body: {
        id: voidId,
        type: 'game.corrected',
        ladder: 'igame-gomoku',
        gameId: 'g-1',
        correctedAt: expect.stringMatching(/T\d\d:\d\d:\d\d(\.\d+)?\+08:00$/),
        void: true,
        note: 'same person on both sides',
      },
    });
    expect(byId.get(playersId)).toMatchObject({
      key: 'qq-gomoku',
      body: {
        type: 'game.corrected',
        ladder: 'qq-gomoku',
        gameId: 'g-2',
        players: [
          { id: 'alice', result: 'loss' },
          { id: 'bob', result: 'win' },
        ],
        note: 'result reversed on appeal',
      },
    });
    expect(byId.get(playersId)!.body).not.toHaveProperty('void');
    const at = Date.parse(byId.get(voidId)!.body.correctedAt);
    expect(Math.abs(Date.now() - at)).toBeLessThan(120_000);
  });

  it('refuses bad flags with a clear message and a non-zero exit, publishing nothing', async () => {
    const before = await published();
    const onePlayer = join(dir, 'one.json');
    await writeFile(onePlayer, JSON.stringify([{ id: 'alice', result: 'win' }]));
    const notArray = join(dir, 'object.json');
    await writeFile(notArray, JSON.stringify({ id: 'alice' }));
    const base = ['--ladder', 'igame-gomoku', '--game', 'g-1', '--note', 'n'];
    const cases: [string[], string][] = [
      [[...base], 'correct needs exactly one of --void or --players FILE.json'],
      [
        [...base, '--void', '--players', onePlayer],
        'correct needs exactly one of --void or --players FILE.json',
      ],
      [
        ['--ladder', 'no-such', '--game', 'g-1', '--void', '--note', 'n'],
        '--ladder no-such: no such ladder',
      ],
      [
        [...base, '--players', onePlayer],
        'refusing to publish an invalid game.corrected: /players must NOT have fewer than 2 items',
      ],
      [[...base, '--players', notArray], `--players ${notArray}: must hold a JSON array`],
      [[...base, '--players', join(dir, 'missing.json')], 'missing.json: ENOENT'],
      [['--ladder', 'igame-gomoku', '--game', 'g-1', '--void'], "'--note <text>' not specified"],
    ];
    /** The JSON error line a refused run ends with. */
    const refusal = async (running: Promise<unknown>) => {
      try {
        await running;
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, line: jsonLines(e.stderr).at(-1) };
      }
      throw new Error('the correction was published');
    };
    for (const [args, message] of cases) {
      expect(await refusal(correct(...args))).toMatchObject({
        code: expect.any(Number),
        stdout: '',
        line: { level: 'error', context: 'ranking', message: expect.stringContaining(message) },
      });
    }
    expect(
      await refusal(
        run(process.execPath, ['bin/ranking.js', 'correct', ...base, '--void'], {
          env: { ...process.env, KAFKA_TOPIC_PREFIX: `${prefix}missing.` },
        }),
      ),
    ).toMatchObject({
      code: 1,
      line: {
        level: 'error',
        message: `topic ${prefix}missing.ranking.ladder-events does not exist: check KAFKA_TOPIC_PREFIX, or create it with \`ranking setup\``,
        command: 'correct',
        exitCode: 1,
      },
    });
    expect(await published()).toBe(before);
  });
});
