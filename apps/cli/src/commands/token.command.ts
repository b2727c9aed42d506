import { loadEnvironment, loadLadders } from '@ranking/config';
import { issueServiceToken, TOKEN_SCOPES, type TokenScope } from '@ranking/ingestion';
import { createDataSource, ServiceTokenRepository } from '@ranking/persistence';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import type { DataSource } from 'typeorm';
import { instantFlag } from '../instant-flag.js';

/** A service name: what an operator and the receipts call a game server. */
const SERVICE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

async function withTokens<T>(
  name: string,
  work: (tokens: ServiceTokenRepository) => Promise<T>,
): Promise<T> {
  const env = loadEnvironment();
  const db: DataSource = createDataSource(env.DATABASE_URL, name);
  await db.initialize();
  try {
    return await work(
      new ServiceTokenRepository({ query: (text, params) => db.query(text, params) }),
    );
  } finally {
    await db.destroy();
  }
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

interface IssueFlags {
  service?: string;
  ladders?: string;
  scope?: string;
  expires?: string;
}

/**
 * `ranking token issue`: a new service token for a game server and the ladders it may use,
 * printed once (only its digest is kept). Valid from the next request on, with no restart.
 */
@SubCommand({
  name: 'issue',
  description:
    'issue a service token for POST /v1/games: --service NAME --ladders A,B [--expires INSTANT]',
})
export class TokenIssueCommand extends CommandRunner {
  async run(_args: string[], flags: IssueFlags): Promise<void> {
    const service = flags.service ?? '';
    if (!SERVICE_NAME.test(service))
      throw new Error(
        'token issue needs --service NAME (1-64 of a-z 0-9 . _ -, starting with a letter or digit)',
      );
    const ladders = (flags.ladders ?? '').split(',').filter((l) => l !== '');
    if (ladders.length === 0)
      throw new Error('token issue needs --ladders A,B: the ladders the service may use');
    const known = loadLadders(loadEnvironment());
    const unknown = ladders.filter((l) => !known.has(l));
    if (unknown.length > 0)
      throw new Error(
        `--ladders: no ladder ${unknown.join(', ')}; known: ${[...known.keys()].join(', ')}`,
      );
    const expiresAt =
      flags.expires === undefined ? null : new Date(instantFlag('--expires', flags.expires));
    if (expiresAt !== null && expiresAt.getTime() <= Date.now())
      throw new Error(`--expires ${flags.expires}: must be in the future`);
    const scopes = (flags.scope ?? 'ingest').split(',').filter((s) => s !== '');
    const unknownScopes = scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
    if (scopes.length === 0 || unknownScopes.length > 0)
      throw new Error(`--scope ${flags.scope}: each of ${TOKEN_SCOPES.join(', ')}`);
    const issued = issueServiceToken();
    await withTokens('ranking-token', (tokens) =>
      tokens.issue({
        tokenId: issued.tokenId,
        service,
        ladders,
        scopes: scopes as TokenScope[],
        digest: issued.digest,
        expiresAt,
      }),
    );
    process.stderr.write('the token is shown once: store it in its holder’s secrets now\n');
    print({ tokenId: issued.tokenId, service, ladders, scopes, expiresAt, token: issued.token });
  }

  @Option({ flags: '--service <name>', description: 'the game server the token is for' })
  parseService(value: string): string {
    return value;
  }

  @Option({ flags: '--ladders <ids>', description: 'comma-separated ladders it may use' })
  parseLadders(value: string): string {
    return value;
  }

  @Option({
    flags: '--scope <scopes>',
    description:
      'what it may do: ingest (game servers, the default), review (support staff), or both',
  })
  parseScope(value: string): string {
    return value;
  }

  @Option({ flags: '--expires <instant>', description: 'RFC 3339 instant it stops working' })
  parseExpires(value: string): string {
    return value;
  }
}

/** `ranking token revoke ID`: refused from the next request on. */
@SubCommand({
  name: 'revoke',
  arguments: '<tokenId>',
  description: 'revoke a service token by its id',
})
export class TokenRevokeCommand extends CommandRunner {
  async run([tokenId]: string[]): Promise<void> {
    const revoked = await withTokens('ranking-token', (tokens) => tokens.revoke(tokenId!));
    if (!revoked) throw new Error(`no token ${tokenId} that is not revoked already`);
    print({ tokenId, revoked: true });
  }
}

/** `ranking token list`: every token, without secrets: whom, which ladders, when last used. */
@SubCommand({ name: 'list', description: 'list service tokens (ids, services, ladders, last use)' })
export class TokenListCommand extends CommandRunner {
  async run(): Promise<void> {
    print({ tokens: await withTokens('ranking-token', (tokens) => tokens.list()) });
  }
}

@Command({
  name: 'token',
  description: "game servers' service tokens for the HTTP way in: issue, revoke, list",
  subCommands: [TokenIssueCommand, TokenRevokeCommand, TokenListCommand],
})
export class TokenCommand extends CommandRunner {
  run(): Promise<void> {
    return Promise.reject(new Error('token needs a subcommand: issue, revoke or list'));
  }
}
