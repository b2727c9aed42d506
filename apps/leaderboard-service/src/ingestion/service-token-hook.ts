import {
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  UnauthorizedException,
} from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import {
  bearerCredentials,
  type ServiceGrant,
  TOKEN_SCOPES,
  type TokenScope,
  tokenDigest,
} from '@ranking/ingestion';
import type { ServiceTokenRepository } from '@ranking/persistence';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A request of a token-holders' route, once its token is authenticated. */
export type GrantedRequest = FastifyRequest & { grant?: ServiceGrant | null };

/** Where a token route's scope is kept in its Fastify route config. */
const SCOPE_CONFIG = 'serviceTokenScope';

/**
 * Every route of the controller is for holders of a service token with `scope` (ADR 34, 42):
 * the scope goes into each route's Fastify config, where guardTokenRoutes finds it and gives the
 * route the onRequest hook that authenticates (ServiceTokenHook) before the body is read.
 */
export const NeedsScope =
  (scope: TokenScope): ClassDecorator =>
  (controller) => {
    const prototype = controller.prototype as object;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (
        name === 'constructor' ||
        typeof handler !== 'function' ||
        Reflect.getMetadata(PATH_METADATA, handler) === undefined
      )
        continue;
      const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as object;
      Reflect.defineMetadata(
        FASTIFY_ROUTE_CONFIG_METADATA,
        { ...config, [SCOPE_CONFIG]: scope },
        handler,
      );
    }
  };

/** The scope a route's Fastify config names (NeedsScope), or undefined for a public route. */
export function tokenScopeOf(config: unknown): TokenScope | undefined {
  const scope = (config as Record<string, unknown> | undefined)?.[SCOPE_CONFIG];
  return (TOKEN_SCOPES as readonly unknown[]).includes(scope) ? (scope as TokenScope) : undefined;
}

/** RFC 6750's challenge: which scheme the route takes, and why the token given was refused. */
const challenge = (error: string | null): string =>
  error === null ? 'Bearer realm="ranking"' : `Bearer realm="ranking", error="${error}"`;

/**
 * The one place a service token is checked. A request without a valid token is answered 401
 * with a Bearer challenge, one whose token lacks the route's scope 403; otherwise the request
 * carries the token's grant (its service, ladders and scopes) for the route (Grant). Tokens are
 * looked up by digest at each request, so an issued or revoked token takes effect at once, with
 * no restart. Run as an onRequest hook of the route: nothing of the body has been read then.
 */
export class ServiceTokenHook {
  constructor(private readonly tokens: ServiceTokenRepository) {}

  async authenticate(request: GrantedRequest, reply: FastifyReply, needed: TokenScope) {
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
    if (!grant.scopes.includes(needed))
      throw new ForbiddenException(
        `this token (${grant.tokenId}, ${grant.service}) may ${grant.scopes.join(' and ')}, not ${needed}`,
      );
    request.grant = grant;
  }
}

/** The grant the route's hook found for the request (a route of a controller with NeedsScope). */
export const grantOf = (request: GrantedRequest): ServiceGrant => {
  const grant = request.grant;
  if (!grant)
    throw new Error('a route that reads the grant must be of a controller with NeedsScope');
  return grant;
};

/** The grant of the request's token, as a handler's parameter. */
export const Grant = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  grantOf(context.switchToHttp().getRequest<GrantedRequest>()),
);
