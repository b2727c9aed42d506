/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createDataSource,
  dropDatabase,
  ensureDatabase,
  LOGIN_ROLES,
  type LoginRole,
  migrate,
  OWNER_ROLE,
  TABLE_GRANTS,
} from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import {
  createMigratedDatabase,
  gameResult,
  jsonLines,
  PrivatePostgres,
  ServiceProcess,
  databaseUrlFor,
  TEST_ENV,
  type TestDatabase,
  urlAsRole,
  waitFor,
} from '@ranking/testing';
import pg from 'pg';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

const execute = promisify(execFile);

/** The built `ranking setup` (PostgreSQL only) on `url`, as a superuser; its JSON log lines. */
async function setup(url: string, env: Record<string, string> = {}): Promise<any[]> {
  const { stdout, stderr } = await execute(
    process.execPath,
    ['bin/ranking.js', 'setup', '--skip-kafka'],
    { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'info', ...env } },
  );
  return jsonLines(stdout + stderr);
}

/** Runs `work` on a connection to `url`. */
async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * What PostgreSQL says to one statement run as `role` inside a transaction it rolls back
 * (nothing stays): 'ok', or the error's SQLSTATE (42501: permission denied).
 */
async function tried(url: string, role: string, statement: string): Promise<string> {
  return connected(urlAsRole(url, role), async (client) => {
    await client.query('BEGIN');
    try {
      await client.query(statement);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await client.query('ROLLBACK');
    }
  });
}

const nameOf = (role: LoginRole) => LOGIN_ROLES[role].name;
const ROLES = Object.keys(LOGIN_ROLES) as LoginRole[];
const DENIED = '42501';

/**
 * Each role's representative statements: what its code runs (the same shapes: upserts, FOR
 * UPDATE, RETURNING, INSERT ... SELECT) and what it must be refused.
 */
const CASES: Record<LoginRole, { allowed: string[]; refused: string[] }> = {
  rating: {
    allowed: [
      `INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ('l', 1, 'e1', 'game.finished', '{}')`,
      `SELECT event_id FROM event_store WHERE event_id = ANY('{e1}'::text[])`,
      `INSERT INTO ladders (ladder) VALUES ('l') ON CONFLICT DO NOTHING`,
      `SELECT last_seq FROM ladders WHERE ladder = 'l' FOR UPDATE`,
      `UPDATE ladders SET last_seq = 1 WHERE ladder = 'l'`,
      `INSERT INTO rating_history (ladder, player, seq, event_id, before, after, delta, why) VALUES ('l', 'p', 1, 'e1', 1500, 1510, 10, '{}')`,
      `INSERT INTO daily_standings (ladder, period_key, player, rating, games, wins, losses, draws, rated_games, level)
       SELECT ladder, 'd', player, rating, games, wins, losses, draws, rated_games, level FROM ladder_players
       WHERE ladder = 'l' ON CONFLICT DO NOTHING`,
      `INSERT INTO outbox (bundle) VALUES ('[]') RETURNING id`,
      `SELECT id FROM outbox ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED`,
      `DELETE FROM outbox WHERE id = 1`,
      `INSERT INTO rejected_messages (consumer, topic, partition, "offset", reason, detail) VALUES ('rating-service', 't', 0, 1, 'r', 'd') ON CONFLICT DO NOTHING`,
      `INSERT INTO consumer_offsets (consumer, topic, partition, next_offset) VALUES ('rating-service', 't', 0, 1)
       ON CONFLICT (consumer, topic, partition) DO UPDATE SET next_offset = EXCLUDED.next_offset`,
      `DELETE FROM pending_annulments WHERE ladder = 'l' AND seq <= 1`,
      `SELECT 1 FROM schema_migrations LIMIT 1`,
    ],
    refused: [
      `UPDATE event_store SET type = 'x'`,
      `DELETE FROM event_store`,
      `TRUNCATE event_store`,
      `SELECT * FROM service_tokens`,
      `INSERT INTO service_tokens (token_id, service, ladders, digest) VALUES ('t', 's', '{l}', '\\x00')`,
      `SELECT * FROM ingest_receipts`,
      `SELECT * FROM rating_history`,
      `DELETE FROM ladder_players`,
      `SELECT * FROM maintenance_clocks`,
      `SELECT * FROM redriven_dead_letters`,
    ],
  },
  maintenance: {
    allowed: [
      `INSERT INTO maintenance_clocks (ladder, period, period_key, closes_at) VALUES ('l', 'daily', 'd', 1) ON CONFLICT (ladder, period) DO NOTHING`,
      `SELECT period_key FROM maintenance_clocks WHERE ladder = 'l' FOR UPDATE SKIP LOCKED`,
      `UPDATE maintenance_clocks SET closes_at = 2 WHERE ladder = 'l'`,
      `INSERT INTO disconnect_games (event_id, ladder) VALUES ('e1', 'l') ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      `INSERT INTO disconnect_counters (ladder, player, count, streak, penalties) VALUES ('l', 'p', 1, 0, 0)
       ON CONFLICT (ladder, player) DO UPDATE SET count = EXCLUDED.count`,
      `INSERT INTO maintenance_outbox (topic, message_key, value) VALUES ('t', 'l', '\\x00')`,
      `DELETE FROM maintenance_outbox WHERE id = 1`,
      `INSERT INTO rejected_messages (consumer, topic, partition, "offset", reason, detail) VALUES ('maintenance-service', 't', 0, 1, 'r', 'd') ON CONFLICT DO NOTHING`,
      `SELECT partition FROM consumer_offsets WHERE consumer = 'maintenance-service' FOR UPDATE`,
    ],
    refused: [
      `SELECT * FROM event_store`,
      `INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ('l', 1, 'e1', 'game.finished', '{}')`,
      `SELECT * FROM service_tokens`,
      `INSERT INTO outbox (bundle) VALUES ('[]')`,
      `UPDATE ladder_players SET rating = 0`,
      `DELETE FROM maintenance_clocks`,
      `DELETE FROM disconnect_counters`,
    ],
  },
  leaderboard: {
    allowed: [
      `WITH valid AS (SELECT token_id, last_used_at FROM service_tokens WHERE digest = '\\x00' AND revoked_at IS NULL)
       UPDATE service_tokens t SET last_used_at = now() FROM valid WHERE t.token_id = valid.token_id`,
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status) VALUES ('e1', 's', 'l', '\\x00', 'accepted')
       ON CONFLICT (event_id) DO UPDATE SET status = 'accepted', received_at = now() WHERE ingest_receipts.status = 'rejected'
       RETURNING event_id`,
      `SELECT e.ladder, v.reason FROM event_store e LEFT JOIN void_games v ON v.ladder = e.ladder AND v.seq = e.seq`,
      `SELECT consumer, reason FROM rejected_messages WHERE event_id = 'e1'`,
      `SELECT p.player, h.after FROM ladder_players p CROSS JOIN LATERAL (SELECT after FROM rating_history r WHERE r.ladder = p.ladder AND r.player = p.player LIMIT 1) h`,
      `SELECT last_seq FROM ladders`,
      `SELECT period_key FROM ladder_periods`,
      `SELECT player FROM daily_standings`,
      `SELECT s.position, p.part FROM ladder_snapshots s JOIN ladder_snapshot_parts p USING (ladder, position)`,
      // The receipts' retention (ADR 42) and a token's producer (ADR 39).
      `DELETE FROM ingest_receipts WHERE received_at < now() - interval '30 days'`,
      `SELECT name, ladders FROM producers`,
    ],
    refused: [
      `INSERT INTO service_tokens (token_id, service, ladders, digest) VALUES ('t', 's', '{l}', '\\x00')`,
      `UPDATE service_tokens SET revoked_at = NULL`,
      `UPDATE service_tokens SET ladders = '{any}'`,
      `UPDATE service_tokens SET scopes = '{ingest,review}'`,
      `UPDATE service_tokens SET expires_at = NULL`,
      `DELETE FROM service_tokens`,
      `INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ('l', 1, 'e1', 'game.finished', '{}')`,
      `UPDATE event_store SET payload = '{}'`,
      `DELETE FROM event_store`,
      `INSERT INTO ladders (ladder) VALUES ('l')`,
      `UPDATE ladder_players SET rating = 3000`,
      `DELETE FROM rating_history`,
      `INSERT INTO outbox (bundle) VALUES ('[]')`,
      `INSERT INTO producers (name, ladders) VALUES ('rogue', '{l}')`,
      `UPDATE producers SET ladders = '{any}'`,
      `SELECT * FROM consumer_offsets`,
    ],
  },
  ops: {
    allowed: [
      `INSERT INTO service_tokens (token_id, service, ladders, scopes, digest, expires_at) VALUES ('t', 's', '{l}', '{ingest}', '\\x00', NULL)`,
      `UPDATE service_tokens SET revoked_at = now() WHERE token_id = 't' AND revoked_at IS NULL RETURNING token_id`,
      `SELECT token_id, last_used_at FROM service_tokens ORDER BY service, created_at, token_id`,
      `SELECT last_seq FROM ladders WHERE ladder = 'l' FOR UPDATE`,
      `DELETE FROM ladder_players WHERE ladder = 'l'`,
      `DELETE FROM ladder_games WHERE ladder = 'l'`,
      `DELETE FROM maintenance_clocks`,
      `DELETE FROM disconnect_counters`,
      `DELETE FROM disconnect_games`,
      `INSERT INTO maintenance_outbox (topic, message_key, value) VALUES ('t', 'l', '\\x00')`,
      `DELETE FROM consumer_offsets WHERE consumer = 'maintenance-service' AND topic = 't'`,
      `INSERT INTO consumer_offsets (consumer, topic, partition, next_offset)
       SELECT 'maintenance-service', topic, partition, next_offset FROM consumer_offsets WHERE consumer = 'rating-service' RETURNING partition`,
      `INSERT INTO redriven_dead_letters (topic, partition, "offset", reason, sent_topic, sent_partition, sent_offset)
       VALUES ('t', 0, 1, 'r', 's', 0, 1) ON CONFLICT (topic, partition, "offset") DO UPDATE SET redriven_at = now()`,
      `SELECT payload FROM event_store ORDER BY ladder, seq`,
      `INSERT INTO producers (name, ladders) VALUES ('gomoku-eu-1', '{l}')`,
      `UPDATE producers SET ladders = '{l,m}' WHERE name = 'gomoku-eu-1'`,
      `DELETE FROM producers WHERE name = 'nobody'`,
    ],
    refused: [
      `INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ('l', 1, 'e1', 'game.finished', '{}')`,
      `UPDATE event_store SET payload = '{}'`,
      `DELETE FROM event_store`,
      `UPDATE service_tokens SET digest = '\\x01'`,
      `UPDATE service_tokens SET ladders = '{any}'`,
      `DELETE FROM service_tokens`,
      `SELECT * FROM ingest_receipts`,
      `INSERT INTO outbox (bundle) VALUES ('[]')`,
      `DELETE FROM rating_history`,
    ],
  },
  intake: {
    allowed: [`SELECT name, ladders FROM producers`, `SELECT 1 FROM schema_migrations LIMIT 1`],
    refused: [
      `SELECT * FROM event_store`,
      `SELECT * FROM service_tokens`,
      `SELECT * FROM ladder_players`,
      `INSERT INTO outbox (bundle) VALUES ('[]')`,
      `INSERT INTO producers (name, ladders) VALUES ('rogue', '{l}')`,
      `UPDATE producers SET ladders = '{any}'`,
    ],
  },
};

/** Statements only the owner may run (the schema's shape and its data wholesale). */
const OWNER_ONLY = [
  'CREATE TABLE intruder (a int)',
  'CREATE TEMP TABLE intruder (a int)',
  'ALTER TABLE event_store ADD COLUMN intruder int',
  'DROP TABLE service_tokens',
  'TRUNCATE ladders',
  'CREATE INDEX intruder ON event_store (type)',
  'ALTER TABLE service_tokens DISABLE TRIGGER ALL',
];

/** The privileges a table can grant, and what TABLE_GRANTS lists as a table privilege. */
const TABLE_PRIVILEGES = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'TRUNCATE',
  'REFERENCES',
  'TRIGGER',
];

describe('PostgreSQL roles: each service and the CLI as a role of its own (ADR 40)', () => {
  describe('the roles and grants the built `ranking setup` makes on a fresh database', () => {
    let database: TestDatabase;
    let firstSetup: any[];

    beforeAll(async () => {
      database = await createMigratedDatabase(TEST_ENV.databaseUrl);
      // Again with its log: a second run finds everything there and changes nothing.
      firstSetup = await setup(database.url);
    }, 120_000);

    afterAll(async () => {
      await database?.drop();
    });

    it('Every table has a line in database-roles.ts, and the catalog holds exactly the listed privileges (sequences: USAGE where INSERT)', async () => {
      expect(firstSetup.filter((l) => l.level !== 'info' && !l.withoutPassword)).toEqual([]);
      expect(firstSetup).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ migrations: [] }),
          expect.objectContaining({ rolesCreated: [], skippedTables: [] }),
        ]),
      );
      await connected(database.url, async (client) => {
        const tables = (
          await client.query<{ name: string; owner: string }>(
            `SELECT c.relname AS name, pg_get_userbyid(c.relowner) AS owner FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
          )
        ).rows;
        expect(tables.filter((t) => t.owner !== OWNER_ROLE)).toEqual([]);
        const relations = tables.filter((t) => !t.name.endsWith('_seq')).map((t) => t.name);
        expect(relations.filter((t) => TABLE_GRANTS[t] === undefined)).toEqual([]);
        const held: string[] = [];
        const listed: string[] = [];
        for (const table of relations)
          for (const role of ROLES) {
            const grants = TABLE_GRANTS[table]![role] ?? [];
            for (const privilege of TABLE_PRIVILEGES) {
              const [row] = (
                await client.query<{ has: boolean }>(
                  'SELECT has_table_privilege($1, $2, $3) AS has',
                  [nameOf(role), table, privilege],
                )
              ).rows;
              if (row!.has) held.push(`${role} ${privilege} ${table}`);
              if (grants.includes(privilege as never)) listed.push(`${role} ${privilege} ${table}`);
            }
          }
        expect(held.sort()).toEqual(listed.sort());
        // Column grants: the API stamps a token's use and nothing else of it.
        const column = async (role: LoginRole, col: string) =>
          (
            await client.query<{ has: boolean }>(
              `SELECT has_column_privilege($1, 'service_tokens', $2, 'UPDATE') AS has`,
              [nameOf(role), col],
            )
          ).rows[0]!.has;
        expect(await column('leaderboard', 'last_used_at')).toBe(true);
        expect(await column('leaderboard', 'revoked_at')).toBe(false);
        expect(await column('ops', 'revoked_at')).toBe(true);
        expect(await column('ops', 'last_used_at')).toBe(false);
        const sequences = (
          await client.query<{ seq: string; table: string }>(
            `SELECT s.relname AS seq, t.relname AS table FROM pg_depend d
             JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
             JOIN pg_class t ON t.oid = d.refobjid
             WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a'`,
          )
        ).rows;
        expect(sequences.length).toBeGreaterThanOrEqual(4);
        for (const { seq, table } of sequences)
          for (const role of ROLES) {
            const [row] = (
              await client.query<{ usage: boolean; select: boolean; update: boolean }>(
                `SELECT has_sequence_privilege($1, $2, 'USAGE') AS usage,
                        has_sequence_privilege($1, $2, 'SELECT') AS select,
                        has_sequence_privilege($1, $2, 'UPDATE') AS update`,
                [nameOf(role), seq],
              )
            ).rows;
            expect({ role, seq, ...row }).toEqual({
              role,
              seq,
              usage: TABLE_GRANTS[table]![role]?.includes('INSERT') === true,
              select: false,
              update: false,
            });
          }
      });
    });

    it.each(ROLES)(
      'The %s role does its job and is refused the rest',
      async (role) => {
        const { allowed, refused } = CASES[role];
        const outcomes = async (statements: string[]) => {
          const found: Record<string, string> = {};
          for (const s of statements) found[s] = await tried(database.url, nameOf(role), s);
          return found;
        };
        expect(await outcomes(allowed)).toEqual(Object.fromEntries(allowed.map((s) => [s, 'ok'])));
        expect(await outcomes(refused)).toEqual(
          Object.fromEntries(refused.map((s) => [s, DENIED])),
        );
      },
      60_000,
    );

    it('No login role may change the schema, and nobody logs in as the owner; PUBLIC may not create in it', async () => {
      for (const role of ROLES)
        for (const statement of OWNER_ONLY)
          expect([role, statement, await tried(database.url, nameOf(role), statement)]).toEqual([
            role,
            statement,
            DENIED,
          ]);
      await expect(
        connected(urlAsRole(database.url, OWNER_ROLE), (c) => c.query('SELECT 1')),
      ).rejects.toMatchObject({ code: '28000' });
      await connected(database.url, async (client) => {
        const [row] = (
          await client.query<{ create: boolean; usage: boolean; connect: boolean }>(
            `SELECT has_schema_privilege('public', 'public', 'CREATE') AS create,
                    has_schema_privilege('public', 'public', 'USAGE') AS usage,
                    has_database_privilege('public', current_database(), 'CONNECT') AS connect`,
          )
        ).rows;
        expect(row).toEqual({ create: false, usage: false, connect: false });
      });
    });

    it('A table the owner creates later grants nothing until a setup lists it; producers (its migration ran) has the grants its line lists', async () => {
      await connected(database.url, async (client) => {
        await client.query(`SET ROLE ${OWNER_ROLE}`);
        await client.query('CREATE TABLE later_table (a int)');
      });
      for (const role of ROLES) {
        expect([
          role,
          await tried(database.url, nameOf(role), 'SELECT * FROM later_table'),
        ]).toEqual([role, DENIED]);
      }
      const again = await setup(database.url);
      expect(again).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ skippedTables: [] }),
          expect.objectContaining({ level: 'warn', ungovernedTables: ['later_table'] }),
        ]),
      );
      expect(await tried(database.url, nameOf('ops'), 'SELECT * FROM later_table')).toBe(DENIED);
      const on = (role: LoginRole, statement: string) =>
        tried(database.url, nameOf(role), statement);
      expect(await on('intake', 'SELECT name FROM producers')).toBe('ok');
      expect(await on('intake', `INSERT INTO producers (name, ladders) VALUES ('x', '{l}')`)).toBe(
        DENIED,
      );
      expect(await on('leaderboard', 'SELECT name FROM producers')).toBe('ok');
      expect(await on('leaderboard', `UPDATE producers SET ladders = '{y}'`)).toBe(DENIED);
      expect(await on('ops', `INSERT INTO producers (name, ladders) VALUES ('x', '{l}')`)).toBe(
        'ok',
      );
      expect(await on('ops', `UPDATE producers SET ladders = '{y}'`)).toBe('ok');
      expect(await on('ops', 'DELETE FROM producers')).toBe('ok');
      expect(await on('rating', 'SELECT * FROM producers')).toBe(DENIED);
      expect(await on('maintenance', 'SELECT * FROM producers')).toBe(DENIED);
    });
  });

  describe('a database set up before the roles existed, and a setup without a superuser', () => {
    const url = databaseUrlFor(`ranking_test_roles_${Date.now().toString(36)}`);

    afterAll(async () => {
      await dropDatabase(url);
    });

    it('Given tables migrated as postgres (as before ADR 40), When setup runs, Then the owner role owns them all and the roles get their grants; a setup as a login role is refused in one line', async () => {
      await ensureDatabase(url);
      const old = createDataSource(url, 'test-old-migrate');
      await old.initialize();
      try {
        await migrate(old);
      } finally {
        await old.destroy();
      }
      expect(await tried(url, nameOf('leaderboard'), 'SELECT 1 FROM service_tokens')).toBe(DENIED);
      const lines = await setup(url);
      const report = lines.find((l) => l.handedOver !== undefined);
      expect(report.handedOver).toEqual(
        expect.arrayContaining([
          'event_store',
          'ladder_players',
          'schema_migrations',
          'service_tokens',
        ]),
      );
      await connected(url, async (client) => {
        const { rows } = await client.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S', 'i')
             AND pg_get_userbyid(c.relowner) <> $1`,
          [OWNER_ROLE],
        );
        expect(rows).toEqual([]);
      });
      expect(await tried(url, nameOf('leaderboard'), 'SELECT 1 FROM service_tokens')).toBe('ok');
      expect(
        await tried(url, nameOf('leaderboard'), `UPDATE service_tokens SET revoked_at = NULL`),
      ).toBe(DENIED);

      const refused = await execute(process.execPath, ['bin/ranking.js', 'setup', '--skip-kafka'], {
        env: { ...process.env, DATABASE_URL: urlAsRole(url, nameOf('ops')), LOG_LEVEL: 'info' },
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(jsonLines(refused!.stderr)).toEqual([
        expect.objectContaining({
          level: 'error',
          message: `ranking setup needs a PostgreSQL superuser in DATABASE_URL (it creates the roles and hands the tables to ${OWNER_ROLE}); ${nameOf('ops')} is not one`,
        }),
      ]);
    });
  });

  describe('the built services and CLI, each as its role', () => {
    const world = new LeaderboardWorld(ladderRegistry(), 'redis://127.0.0.1:6379', {
      database: () => createMigratedDatabase(TEST_ENV.databaseUrl),
    });
    const dir = mkdtempSync(join(tmpdir(), 'ranking-pg-roles-'));
    const as = (role: LoginRole) => urlAsRole(world.databaseUrl, nameOf(role));
    let rating: ServiceProcess;
    let intake: ServiceProcess;
    let maintenance: ServiceProcess;

    /** The built CLI as the operators' role; its standard output. */
    const ranking = async (...args: string[]): Promise<string> =>
      (
        await execute(process.execPath, ['bin/ranking.js', ...args], {
          env: {
            ...process.env,
            DATABASE_URL: as('ops'),
            KAFKA_TOPIC_PREFIX: world.prefix,
            LOG_LEVEL: 'warn',
          },
        })
      ).stdout;

    /** `waitFor`, whose failure says what the services printed (a refused statement, say). */
    const until = (check: () => Promise<boolean>, what: string, timeout = 60_000) =>
      waitFor(check, { timeout, interval: 200, what }).catch((error: Error) => {
        const outputs = { rating, intake, maintenance, leaderboard: world.leaderboard };
        throw new Error(
          `${error.message}\n${Object.entries(outputs)
            .map(([name, p]) => `--- ${name}:\n${p.output.slice(-4000)}`)
            .join('\n')}`,
        );
      });

    beforeAll(async () => {
      await world.setUp();
      rating = world.service({ DATABASE_URL: as('rating') });
      intake = world.intake({ DATABASE_URL: as('intake') });
      maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
        DATABASE_URL: as('maintenance'),
        KAFKA_TOPIC_PREFIX: world.prefix,
      });
      rating.start();
      intake.start();
      maintenance.start();
      await world.startLeaderboard({ DATABASE_URL: as('leaderboard') });
    }, 120_000);

    afterAll(async () => {
      await world.tearDownAll(rating, intake, maintenance);
    });

    it('ops issues a token; the API checks it and ingests; rating and maintenance apply the games; an annulment is re-folded and snapshotted; ops rebuilds, exports and rebuilds the counters', async () => {
      await world.addProducer('roles-test', ['igame-gomoku']);
      const issued = JSON.parse(await ranking('token', 'issue', '--producer', 'roles-test')) as {
        token: string;
        tokenId: string;
      };
      // Three days ago: the maintenance service finds closes due and the rating service applies them.
      const start = Date.now() - 3 * 86_400_000;
      const games = Array.from({ length: 12 }, (_, n) =>
        gameResult(`roles-test:roles-${n}`, {
          gameId: `g-roles-${n}`,
          finishedAt: new Date(start + n * 60_000).toISOString(),
          players: [
            {
              id: 'alice',
              result: n % 3 === 0 ? 'loss' : 'win',
              side: 'black',
              first: true,
              ip: '203.0.113.7',
            },
            {
              id: `bob-${n % 4}`,
              result: n % 3 === 0 ? 'win' : 'loss',
              side: 'white',
              first: false,
              ip: '198.51.100.2',
            },
          ],
        }),
      );
      const post = await fetch(`http://127.0.0.1:${world.port}/v1/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${issued.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(games),
      });
      expect([post.status, await post.text()]).toEqual([
        202,
        expect.stringContaining('"accepted":12'),
      ]);
      const stored = async (type: string) =>
        Number(
          (await world.db.query('SELECT count(*) AS n FROM event_store WHERE type = $1', [type]))[0]
            .n,
        );
      await until(
        async () =>
          (await stored('game.finished')) === 12 &&
          (await stored('period.closed')) > 0 &&
          (await world.db.query('SELECT 1 FROM ladder_periods')).length > 0 &&
          (await world.settled()),
        'the games and the closes the maintenance service decided applied, and their rating changes on the boards',
      );
      const status = await fetch(`http://127.0.0.1:${world.port}/v1/events/roles-test:roles-3`, {
        headers: { authorization: `Bearer ${issued.token}` },
      });
      expect([status.status, ((await status.json()) as any).status]).toEqual([200, 'applied']);
      const alice = await world.get('/v1/ladders/igame-gomoku/players/alice/history');
      expect(alice.status).toBe(200);
      expect(await ranking('token', 'list')).toContain(issued.tokenId);
      const [used] = await world.db.query(
        'SELECT last_used_at FROM service_tokens WHERE token_id = $1',
        [issued.tokenId],
      );
      expect(used.last_used_at).not.toBeNull();
      // The maintenance service started the ladder's clocks and checkpointed as its role.
      await until(
        async () =>
          (
            await world.db.query(
              "SELECT 1 FROM consumer_offsets WHERE consumer = 'maintenance-service'",
            )
          ).length > 0 && (await world.db.query('SELECT 1 FROM maintenance_clocks')).length > 0,
        "the maintenance service's clocks and checkpoints",
      );

      // An annulment (the CLI's preview reads the store as ops): the rating service re-folds
      // the ladder beside its consumer and writes a snapshot, as its role.
      const annul = [
        'annul',
        '--ladder',
        'igame-gomoku',
        '--player',
        'bob-1',
        '--since',
        new Date(start - 86_400_000).toISOString(),
        '--note',
        'roles test',
      ];
      expect(JSON.parse(await ranking(...annul, '--dry-run')).moved).toBeGreaterThan(0);
      await ranking(...annul);
      await until(
        async () =>
          (await stored('player.annulled')) === 1 &&
          (await world.drained()) &&
          (await world.db.query('SELECT 1 FROM ladder_snapshots')).length > 0,
        'the annulment swapped in and a snapshot saved',
      );

      // Exit code 0: the live tables match the re-fold (3 would be a mismatch).
      await ranking('rebuild', '--ladder', 'igame-gomoku');
      const standings = join(dir, 'standings.json');
      await ranking('export', '--standings', standings, '--log', join(dir, 'log.ndjson'));
      expect(JSON.parse(readFileSync(standings, 'utf8')).ladders).toBeDefined();
      await maintenance.stop();
      await ranking('rebuild-counters');
      expect(JSON.parse(await ranking('token', 'revoke', issued.tokenId))).toMatchObject({
        revoked: true,
      });
      const revoked = await fetch(`http://127.0.0.1:${world.port}/v1/events/roles-test:roles-3`, {
        headers: { authorization: `Bearer ${issued.token}` },
      });
      expect(revoked.status).toBe(401);
      for (const service of [rating, world.leaderboard])
        expect(service.output).not.toMatch(/permission denied/);
    }, 180_000);
  });

  describe('passwords, on a server that asks for them (SCRAM)', () => {
    let server: PrivatePostgres;
    const superuser = 'superuser-password-for-this-test';

    beforeAll(async () => {
      server = await PrivatePostgres.create({ superuserPassword: superuser });
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
    });

    it('Given the passwords in the environment, Then each role logs in with its own only, a role without one cannot, and a setup again changes a password only when it changed; two setups at once both succeed', async () => {
      const first = server.url('ranking_a');
      const second = server.url('ranking_b');
      const passwords = {
        DATABASE_LEADERBOARD_PASSWORD: 'leaderboard-password-1',
        DATABASE_OPS_PASSWORD: 'ops-password-0000001',
      };
      // The roles do not exist yet on this server: both setups try to create them.
      const [a, b] = await Promise.all([setup(first, passwords), setup(second, passwords)]);
      const report = (lines: any[]): any => lines.find((l) => l.rolesCreated !== undefined);
      expect([...report(a).rolesCreated, ...report(b).rolesCreated].sort()).toEqual(
        [OWNER_ROLE, ...ROLES.map(nameOf)].sort(),
      );
      const login = (url: string, role: LoginRole, password?: string) =>
        connected(
          urlAsRole(url, nameOf(role), password),
          async (c) => (await c.query('SELECT current_user AS who')).rows[0].who as string,
        );
      expect(await login(first, 'leaderboard', 'leaderboard-password-1')).toBe(
        nameOf('leaderboard'),
      );
      expect(await login(second, 'ops', 'ops-password-0000001')).toBe(nameOf('ops'));
      await expect(login(first, 'leaderboard', 'ops-password-0000001')).rejects.toMatchObject({
        code: '28P01',
      });
      await expect(login(first, 'rating', 'anything-at-all-x')).rejects.toMatchObject({
        code: '28P01',
      });
      expect(report(a).passwordsSet.length + report(b).passwordsSet.length).toBeGreaterThanOrEqual(
        2,
      );
      const same = report(await setup(first, passwords));
      expect(same).toMatchObject({ rolesCreated: [], passwordsSet: [] });
      const changed = report(
        await setup(first, { ...passwords, DATABASE_OPS_PASSWORD: 'ops-password-0000002' }),
      );
      expect(changed.passwordsSet).toEqual([nameOf('ops')]);
      expect(await login(first, 'ops', 'ops-password-0000002')).toBe(nameOf('ops'));
      await expect(login(first, 'ops', 'ops-password-0000001')).rejects.toMatchObject({
        code: '28P01',
      });
    }, 120_000);
  });
});
