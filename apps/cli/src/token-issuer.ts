import { userInfo } from 'node:os';

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

/** Who issues a token (`--issued-by`, else the OS user), checked; stored with it (ADR 42). */
export function tokenIssuer(flag: string | undefined): string {
  const issuedBy = flag ?? osUser();
  if (issuedBy === undefined)
    throw new Error('token issue needs --issued-by NAME: no $USER nor OS account names you');
  if (!OPERATOR.test(issuedBy))
    throw new Error(`--issued-by ${JSON.stringify(issuedBy)}: 1-128 characters, no control ones`);
  return issuedBy;
}

/** A token's default end, DEFAULT_TOKEN_DAYS from `now`. */
export const defaultTokenExpiry = (now: number): Date =>
  new Date(now + DEFAULT_TOKEN_DAYS * 86_400_000);
