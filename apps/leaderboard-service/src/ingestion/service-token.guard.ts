import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { bearerCredentials, type ServiceGrant, tokenDigest } from '@ranking/ingestion';
import { ServiceTokenRepository } from '@ranking/persistence';
import type { FastifyReply, FastifyRequest } from 'fastify';

type GrantedRequest = FastifyRequest & { grant?: ServiceGrant };

/** RFC 6750's challenge: which scheme the route takes, and why the token given was refused. */
const challenge = (error: string | null): string =>
  error === null ? 'Bearer realm="ranking"' : `Bearer realm="ranking", error="${error}"`;

/**
 * The game servers' routes: a request without a valid service token is answered 401 with a
 * Bearer challenge; with one, the route gets the token's grant (its service and ladders).
 * Tokens are looked up by digest at each request, so an issued or revoked token takes effect
 * at once, with no restart.
 */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(private readonly tokens: ServiceTokenRepository) {}

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
