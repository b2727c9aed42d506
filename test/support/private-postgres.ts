import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

/** Where the PostgreSQL server binaries are: PG_BINDIR, else the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(`no PostgreSQL server binaries under ${root}/<version>/bin (set PG_BINDIR)`);
  return join(root, versions[0]!, 'bin');
}

/**
 * The OS user the server runs as: initdb and postgres refuse root, so as root they run as
 * `postgres`; as anyone else, as themselves.
 */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a process has ended (gone, or a zombie nobody reaped: it holds nothing any more). */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // it ended while the list was read
    }
  }
  return children;
}

/**
 * A PostgreSQL cluster of a test's own, never the machine's shared server: initdb in a temp
 * directory, trust authentication (or, with a superuser password, SCRAM over TCP and trust on
 * its socket only), 127.0.0.1 on a free port, its socket in the temp directory.
 * The postmaster is this process's child (as the `postgres` user when run as root), so a test
 * can SIGKILL it and start it again on the same data directory, which is crash recovery.
 */
export class PrivatePostgres {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  /** What the server printed (its log goes to stderr), across restarts. */
  output = '';
  /** The length of `output` when the server was last started: its log since then follows. */
  private startedAt = 0;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | null,
    /** The superuser's password, where TCP connections must give one (SCRAM). */
    private readonly password?: string,
  ) {}

  /**
   * A new cluster, initialised and started. With `superuserPassword`, a TCP connection logs in
   * only with its role's password (scram-sha-256), as a production server does.
   */
  static async create(options: { superuserPassword?: string } = {}): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    const user = serverUser();
    const dir = await mkdtemp(join(tmpdir(), 'ranking-pg-'));
    try {
      if (user) await chown(dir, user.uid, user.gid);
      const password = options.superuserPassword;
      const cluster = new PrivatePostgres(dir, await freePort(), bin, user, password);
      const auth = ['--auth=trust'];
      if (password !== undefined) {
        const file = join(dir, 'superuser-password');
        await writeFile(file, `${password}\n`, { mode: 0o600 });
        if (user) await chown(file, user.uid, user.gid);
        auth.splice(0, 1, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${file}`);
      }
      await run(
        join(bin, 'initdb'),
        [
          '-D',
          cluster.dataDir,
          ...auth,
          '--username=postgres',
          '--encoding=UTF8',
          '--locale=C.UTF-8',
          '--no-sync',
        ],
        { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_ALL: 'C' } },
      );
      await cluster.start();
      return cluster;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** A database on this cluster. */
  url(database = 'postgres'): string {
    const login =
      this.password === undefined ? 'postgres' : `postgres:${encodeURIComponent(this.password)}`;
    return `postgres://${login}@127.0.0.1:${this.port}/${database}`;
  }

  /** Whether its postmaster runs (started and not ended since). */
  get running(): boolean {
    const child = this.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  /** What the server logged since it was last started (crash recovery says so there). */
  get logSinceStart(): string {
    return this.output.slice(this.startedAt);
  }

  /**
   * Starts the postmaster on the data directory and waits until it takes connections; after a
   * crash that is once its recovery has replayed the WAL.
   */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error('the private PostgreSQL is already running');
    this.startedAt = this.output.length;
    const child = spawn(
      join(this.bin, 'postgres'),
      [
        '-D',
        this.dataDir,
        '-c',
        `port=${this.port}`,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${this.dir}`,
        '-c',
        'logging_collector=off',
      ],
      { ...(this.user ?? {}), cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child = child;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.exited = exited;
    const died = exited.then(() => {
      throw new Error(`the private PostgreSQL exited on start:\n${this.logSinceStart}`);
    });
    died.catch(() => undefined);
    await Promise.race([
      died,
      waitFor(
        async () => {
          const client = new pg.Client({ connectionString: this.url() });
          try {
            await client.connect();
            await client.query('SELECT 1');
            return true;
          } finally {
            await client.end().catch(() => undefined);
          }
        },
        { timeout: timeoutMs, interval: 100, what: 'the private PostgreSQL to take connections' },
      ),
    ]);
  }

  /** The postmaster's pid, as its lock file postmaster.pid gives it. */
  postmasterPid(): number {
    return Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /**
   * A crash: SIGKILL to the postmaster and every backend and helper process, as when its machine
   * or container dies. The postmaster is stopped first, so that it forks nothing more and its
   * children die before it (none of them sees it go and says goodbye to its client). Each
   * backend is a session of its own, so a process group kill would miss them, and orphans left
   * running would hold the shared memory and refuse the next start. Returns how many processes
   * were killed.
   */
  async kill(): Promise<number> {
    const pid = this.postmasterPid();
    if (!this.running || this.child?.pid !== pid)
      throw new Error(`the private PostgreSQL is not running as pid ${pid}`);
    process.kill(pid, 'SIGSTOP');
    const children = childrenOf(pid);
    for (const child of children) {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // it had ended already
      }
    }
    process.kill(pid, 'SIGKILL');
    await this.exited;
    await waitFor(() => children.every(ended), {
      timeout: 10_000,
      what: 'every PostgreSQL process to end',
    });
    return 1 + children.length;
  }

  /** A clean (fast) shutdown if it runs, then the data directory goes. */
  async stop(): Promise<void> {
    if (this.running) {
      this.child?.kill('SIGINT');
      await this.exited;
    }
    this.child = null;
    await rm(this.dir, { recursive: true, force: true });
  }
}
