import { loadEnvironment, loadLadders } from '@ranking/config';
import { issueServiceToken, TOKEN_SCOPES, type TokenScope } from '@ranking/ingestion';
import {
  createDataSource,
  ProducerRepository,
  ServiceTokenRepository,
  sqlOf,
} from '@ranking/persistence';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import type { DataSource } from 'typeorm';
import { instantFlag } from '../instant-flag.js';
import { DEFAULT_TOKEN_DAYS, defaultTokenExpiry, tokenIssuer } from '../token-issuer.js';

/** A service name: what an operator and the receipts call a game server. */
const SERVICE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

async function withTokens<T>(
  name: string,
  work: (tokens: ServiceTokenRepository, producers: ProducerRepository) => Promise<T>,
): Promise<T> {
  const env = loadEnvironment();
  const db: DataSource = createDataSource(env.DATABASE_URL, name);
  await db.initialize();
  try {
    return await work(
      new ServiceTokenRepository(sqlOf(db.manager)),
      new ProducerRepository(sqlOf(db.manager)),
    );
  } finally {
    await db.destroy();
  }
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

interface IssueFlags {
  producer?: string;
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
  if (flags.expires === undefined) return defaultTokenExpiry(now);
  const expiresAt = new Date(instantFlag('--expires', flags.expires));
  if (expiresAt.getTime() <= now)
    throw new Error(`--expires ${flags.expires}: must be in the future`);
  return expiresAt;
}

/**
 * `ranking token issue`: a new service token, printed once (only its digest is kept). Valid from
 * the next request on, with no restart. An `ingest` token belongs to a producer (ADR 39): it
 * sends that producer's events, under its namespace, for its ladders (all of them, or the
 * --ladders among them); a `review` token is support staff's, for --service and --ladders.
 */
@SubCommand({
  name: 'issue',
  description: `issue a service token: --producer NAME [--ladders A,B] for POST /v1/games, or --scope review --service NAME --ladders A,B; [--expires INSTANT | --no-expiry] [--issued-by NAME]; it expires in ${DEFAULT_TOKEN_DAYS} days unless said`,
})
export class TokenIssueCommand extends CommandRunner {
  async run(_args: string[], flags: IssueFlags): Promise<void> {
    const scopes = (flags.scope ?? 'ingest').split(',').filter((s) => s !== '');
    const unknownScopes = scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
    if (scopes.length === 0 || unknownScopes.length > 0)
      throw new Error(`--scope ${flags.scope}: each of ${TOKEN_SCOPES.join(', ')}`);
    if (scopes.includes('ingest') && flags.producer === undefined)
      throw new Error(
        'an ingest token belongs to a producer: token issue --producer NAME (see `ranking producer add`)',
      );
    const producer =
      flags.producer === undefined
        ? null
        : await withTokens('ranking-token', (_, producers) => producers.get(flags.producer!));
    if (flags.producer !== undefined && producer === null)
      throw new Error(
        `--producer ${flags.producer}: no such producer (see \`ranking producer list\`)`,
      );
    const service = flags.service ?? producer?.name ?? '';
    if (!SERVICE_NAME.test(service))
      throw new Error(
        'token issue needs --service NAME (1-64 of a-z 0-9 . _ -, starting with a letter or digit)',
      );
    const ladders =
      flags.ladders === undefined && producer !== null
        ? [...producer.ladders]
        : (flags.ladders ?? '').split(',').filter((l) => l !== '');
    if (ladders.length === 0)
      throw new Error('token issue needs --ladders A,B: the ladders the service may use');
    const foreign = producer === null ? [] : ladders.filter((l) => !producer.ladders.includes(l));
    if (foreign.length > 0)
      throw new Error(
        `--ladders: the producer ${producer!.name} may not write ${foreign.join(', ')}; it may write ${producer!.ladders.join(', ')}`,
      );
    const known = loadLadders(loadEnvironment());
    const unknown = ladders.filter((l) => !known.has(l));
    if (unknown.length > 0)
      throw new Error(
        `--ladders: no ladder ${unknown.join(', ')}; known: ${[...known.keys()].join(', ')}`,
      );
    const expiresAt = expiryOf(flags, Date.now());
    const issuedBy = tokenIssuer(flags.issuedBy);
    const issued = issueServiceToken();
    await withTokens('ranking-token', (tokens) =>
      tokens.issue({
        tokenId: issued.tokenId,
        service,
        producer: producer?.name ?? null,
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
      producer: producer?.name ?? null,
      ladders,
      scopes,
      expiresAt,
      issuedBy,
      token: issued.token,
    });
  }

  @Option({
    flags: '--producer <name>',
    description: 'the producer an ingest token belongs to (its namespace and ladders)',
  })
  parseProducer(value: string): string {
    return value;
  }

  @Option({
    flags: '--service <name>',
    description: 'who holds it (default: the producer); a review token needs it',
  })
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
