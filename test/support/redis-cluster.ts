import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

/** Whether a TCP port on the loopback interface is free now. */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free port whose cluster bus port (port + 10000) is free too. */
async function clusterPort(taken: readonly number[]): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.some((t) => Math.abs(t - port) < 2 || Math.abs(t + 10_000 - port) < 2)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

/**
 * A local Redis Cluster of three masters (no replicas, no persistence) in a temporary folder,
 * for tests: `redis-server --cluster-enabled yes` on three free ports, joined by
 * `redis-cli --cluster create`. Starts in about a second; `stop` kills the servers and removes
 * the folder.
 */
export class LocalRedisCluster {
  private readonly children = new Map<number, ChildProcess>();
  private dir = '';
  ports: number[] = [];

  /** The `REDIS_URL` the services take for this cluster. */
  get url(): string {
    return `redis+cluster://${this.ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
  }

  async start(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'ranking-redis-cluster-'));
    for (let i = 0; i < 3; i++) this.ports.push(await clusterPort(this.ports));
    for (const port of this.ports) this.startNode(port);
    for (const port of this.ports) await this.answers(port);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...this.ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await waitFor(
      async () => {
        for (const port of this.ports) {
          const info = await this.command(port, 'CLUSTER', 'INFO');
          if (!/cluster_state:ok/.test(String(info))) return false;
        }
        return true;
      },
      { timeout: 20_000, interval: 100, what: 'the Redis Cluster to be ok' },
    );
  }

  /** Restarts one master empty (its slots kept, its keys lost), as a node without persistence. */
  async restartEmpty(port: number): Promise<void> {
    await this.kill(port);
    // The node keeps its identity and slots in nodes-<port>.conf; only the data is gone.
    this.startNode(port);
    await this.answers(port);
    await waitFor(
      async () => /cluster_state:ok/.test(String(await this.command(port, 'CLUSTER', 'INFO'))),
      { timeout: 20_000, interval: 100, what: `node ${port} back in the cluster` },
    );
  }

  async stop(): Promise<void> {
    for (const port of [...this.children.keys()]) await this.kill(port);
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private startNode(port: number): void {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(this.dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '2000',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    this.children.set(port, child);
  }

  private async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    this.children.delete(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private answers(port: number): Promise<boolean> {
    return waitFor(async () => (await this.command(port, 'PING')) === 'PONG', {
      timeout: 10_000,
      what: `Redis Cluster node ${port}`,
    });
  }

  /** One command to one node, on a connection of its own. */
  private async command(port: number, name: string, ...args: string[]): Promise<unknown> {
    const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    node.on('error', () => undefined);
    try {
      await node.connect();
      return await node.call(name, ...args);
    } finally {
      node.disconnect();
    }
  }
}
