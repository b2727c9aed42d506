import { userInfo } from 'node:os';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { issueServiceToken, TOKEN_SCOPES, type TokenScope } from '@ranking/ingestion';
import { createDataSource, ServiceTokenRepository } from '@ranking/persistence';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import type { DataSource } from 'typeorm';
import { instantFlag } from '../instant-flag.js';

/** A service name: what an operator and the receipts call a game server. */
const SERVICE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** How long a token works unless `--expires` or `--no-expiry` says otherwise (ADR 42). */
export const DEFAULT_TOKEN_DAYS = 90;

/** Who issues a token: 1-128 characters, none of them a control character. */
const OPERATOR = /^[^\p{Cc}]{1,128}$/u;

/** The operator's name from the environment: $USER, else the OS account running the CLI. */
function osUser(): string | undefined {
  if (process.env.USER) return process.env.USER;
  try {
    return userInfo().username || undefined;
  } catch {
    // A uid without an account (a container): the operator must say who they are.
    return undefined;
  }
}

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
  /** false with --no-expiry. */
  expiry?: boolean;
  issuedBy?: string;
}

/**
 * When the token stops working: `--expires INSTANT`, never with `--no-expiry` (a choice to
 * make explicitly), else DEFAULT_TOKEN_DAYS from now.
 */
function expiryOf(flags: IssueFlags, now: number): Date | null {
  if (flags.expiry === false) {
    if (flags.expires !== undefined)
      throw new Error('--expires and --no-expiry contradict each other: give one');
    return null;
  }
  if (flags.expires === undefined) return new Date(now + DEFAULT_TOKEN_DAYS * 86_400_000);
  const expiresAt = new Date(instantFlag('--expires', flags.expires));
  if (expiresAt.getTime() <= now)
    throw new Error(`--expires ${flags.expires}: must be in the future`);
  return expiresAt;
}

/**
 * `ranking token issue`: a new service token for a game server and the ladders it may use,
 * printed once (only its digest is kept). Valid from the next request on, with no restart.
 */
@SubCommand({
  name: 'issue',
  description: `issue a service token for POST /v1/games: --service NAME --ladders A,B [--expires INSTANT | --no-expiry] [--issued-by NAME]; it expires in ${DEFAULT_TOKEN_DAYS} days unless said`,
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
    const expiresAt = expiryOf(flags, Date.now());
    const issuedBy = flags.issuedBy ?? osUser();
    if (issuedBy === undefined)
      throw new Error('token issue needs --issued-by NAME: no $USER nor OS account names you');
    if (!OPERATOR.test(issuedBy))
      throw new Error(`--issued-by ${JSON.stringify(issuedBy)}: 1-128 characters, no control ones`);
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
        issuedBy,
      }),
    );
    process.stderr.write('the token is shown once: store it in its holder’s secrets now\n');
    print({
      tokenId: issued.tokenId,
      service,
      ladders,
      scopes,
      expiresAt,
      issuedBy,
      token: issued.token,
    });
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

  @Option({
    flags: '--expires <instant>',
    description: `RFC 3339 instant it stops working (default: ${DEFAULT_TOKEN_DAYS} days from now)`,
  })
  parseExpires(value: string): string {
    return value;
  }

  @Option({ flags: '--no-expiry', description: 'a token that never expires (revoke it by hand)' })
  parseNoExpiry(): boolean {
    return false;
  }

  @Option({
    flags: '--issued-by <name>',
    description: 'the operator issuing it, kept with the token (default: $USER or the OS account)',
  })
  parseIssuedBy(value: string): string {
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

/**
 * `ranking token list`: every token, without secrets: whom, which ladders, who issued it, when
 * it expires and was last used.
 */
@SubCommand({
  name: 'list',
  description: 'list service tokens (ids, services, ladders, issuer, expiry, last use)',
})
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
