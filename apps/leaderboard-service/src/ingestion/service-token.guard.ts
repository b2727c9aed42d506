import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  bearerCredentials,
  type ServiceGrant,
  type TokenScope,
  tokenDigest,
} from '@ranking/ingestion';
import { ServiceTokenRepository } from '@ranking/persistence';
import type { FastifyReply, FastifyRequest } from 'fastify';

type GrantedRequest = FastifyRequest & { grant?: ServiceGrant };

const SCOPE = 'ranking:token-scope';

/** The scope a controller's routes need of a token (ServiceTokenGuard refuses 403 without it). */
export const NeedsScope = (scope: TokenScope) => SetMetadata(SCOPE, scope);

/** RFC 6750's challenge: which scheme the route takes, and why the token given was refused. */
const challenge = (error: string | null): string =>
  error === null ? 'Bearer realm="ranking"' : `Bearer realm="ranking", error="${error}"`;

/**
 * The token-holders' routes: a request without a valid service token is answered 401 with a
 * Bearer challenge, one whose token lacks the route's scope (NeedsScope) 403; otherwise the
 * route gets the token's grant (its service, ladders and scopes).
 * Tokens are looked up by digest at each request, so an issued or revoked token takes effect
 * at once, with no restart.
 */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: ServiceTokenRepository,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<GrantedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const credentials = bearerCredentials(request.headers.authorization);
    if (!credentials.ok) {
      const malformed = request.headers.authorization !== undefined;
      void reply.header('WWW-Authenticate', challenge(malformed ? 'invalid_token' : null));
      throw new UnauthorizedException(credentials.detail);
    }
    const grant = await this.tokens.grantOf(tokenDigest(credentials.token));
    if (grant === null) {
      void reply.header('WWW-Authenticate', challenge('invalid_token'));
      throw new UnauthorizedException('the token is unknown, revoked or expired');
    }
    const needed = this.reflector.getAllAndOverride<TokenScope | undefined>(SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    // A route that names no scope is refused to every token: nothing is open by omission.
    if (needed === undefined || !grant.scopes.includes(needed))
      throw new ForbiddenException(
        `this token (${grant.tokenId}, ${grant.service}) may ${grant.scopes.join(' and ')}, not ${needed ?? 'use this route'}`,
      );
    request.grant = grant;
    return true;
  }
}

/** The grant ServiceTokenGuard found for the request. */
export const Grant = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const grant = context.switchToHttp().getRequest<GrantedRequest>().grant;
  if (!grant) throw new Error('a route that reads the grant must be guarded by ServiceTokenGuard');
  return grant;
});
