import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const SCRIPT = 'deploy/postgres-ha.sh';
/** The ports deploy/postgres-ha.sh takes from its base. */
const PORTS = 8;

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose block of PORTS ports is free now (random, 21000-28999: below the ephemeral range and the broker tests' 29092). */
async function freePortBlock(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 21_000 + Math.floor(Math.random() * 790) * 10;
    const free = await Promise.all(Array.from({ length: PORTS }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no block of 8 free ports for the PostgreSQL HA pair');
}

export type HaNode = 'node1' | 'node2';

/**
 * A Patroni pair (a primary and a synchronous standby, etcd, HAProxy in front) of a test's own,
 * brought up by deploy/postgres-ha.sh, the script operators run, in a temp state directory on
 * free ports; the machine's PostgreSQL is not involved.
 */
export class PostgresHaPair {
  private constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly dir: string,
    readonly portBase: number,
  ) {}

  /**
   * `synchronous`: commits wait for the standby (the default, ADR 38); false: asynchronous
   * replication, where a failover can lose the primary's last commits (to reproduce what a
   * running consumer then does, ADR 38; no service is meant to run on it).
   */
  static async create({
    synchronous = true,
  }: { synchronous?: boolean } = {}): Promise<PostgresHaPair> {
    const dir = await mkdtemp(join(tmpdir(), 'ranking-pg-ha-'));
    // The servers run as `postgres` when this is root: they must reach the state inside.
    await chmod(dir, 0o755);
    const portBase = await freePortBlock();
    const pair = new PostgresHaPair(
      {
        ...process.env,
        PG_HA_STATE_DIR: join(dir, 'state'),
        PG_HA_PORT_BASE: String(portBase),
        PG_HA_SYNCHRONOUS: synchronous ? 'on' : 'off',
      },
      dir,
      portBase,
    );
    try {
      await pair.script('up');
    } catch (error) {
      await pair.destroy();
      throw error;
    }
    return pair;
  }

  /** Runs the script with this pair's state and ports; its output. */
  async script(...args: string[]): Promise<string> {
    try {
      const { stdout } = await run('bash', [SCRIPT, ...args], {
        env: this.env,
        timeout: 300_000,
      });
      return stdout.trim();
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${SCRIPT} ${args.join(' ')} failed: ${e.message}\n${e.stdout}\n${e.stderr}`);
    }
  }

  /** A database through HAProxy's read-write port: whichever node is primary. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.portBase}/${database}`;
  }

  /** A database on one node itself, whatever its role (a standby answers reads only). */
  nodeUrl(node: HaNode, database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.portBase + (node === 'node1' ? 2 : 3)}/${database}`;
  }

  /** Runs one query on a node itself. */
  async queryNode<T>(node: HaNode, database: string, text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.nodeUrl(node, database) });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /**
   * Stops (SIGSTOP) the standby's WAL receiver: the primary's commits from now on reach only the
   * primary (asynchronous replication does not wait). Returns the function that ends the cut:
   * it SIGKILLs the stopped receiver rather than letting it go on, so the WAL the primary had
   * already sent into the socket is discarded with it (a resumed receiver would read it and the
   * standby would hold more, by chance); the standby restarts (crash recovery) holding exactly
   * what it had written before the cut.
   */
  async cutReplication(standby: HaNode): Promise<() => void> {
    const [row] = await this.queryNode<{ pid: number }>(
      standby,
      'postgres',
      'SELECT pid FROM pg_stat_wal_receiver',
    );
    if (!row) throw new Error(`${standby} has no WAL receiver`);
    process.kill(row.pid, 'SIGSTOP');
    return () => {
      try {
        process.kill(row.pid, 'SIGKILL');
      } catch {
        // it ended already
      }
    };
  }

  /** The node that is primary now (Patroni's REST API), or null while none is. */
  async primary(): Promise<HaNode | null> {
    try {
      return (await this.script('primary')) as HaNode;
    } catch {
      return null;
    }
  }

  /** SIGKILLs the primary's Patroni and PostgreSQL processes; the node it was. */
  async crashPrimary(): Promise<HaNode> {
    return (await this.script('crash')) as HaNode;
  }

  /** Starts a crashed node again; resolves once it streams as the synchronous standby. */
  async startNode(node: HaNode): Promise<void> {
    await this.script('start-node', node);
  }

  /** A planned switchover to the standby; resolves once the old primary follows. */
  async switchover(): Promise<void> {
    await this.script('switchover');
  }

  /** Stops every process and removes the state. */
  async destroy(): Promise<void> {
    try {
      await this.script('clean');
    } finally {
      await rm(this.dir, { recursive: true, force: true });
    }
  }
}
