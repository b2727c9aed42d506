import { type INestApplication, VersioningType } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  INGESTION_TOKEN_SCHEME,
  INGESTION_TOKEN_SCHEME_OBJECT,
} from '../ingestion/ingestion-openapi.js';
import { API_PREFIX, hasVersionedSuccessor } from './api-version.js';

// The package exports the document's type only: its parts, derived from it.
type PathItemObject = OpenAPIObject['paths'][string];
type OperationObject = NonNullable<PathItemObject['get']>;
type ResponseObject = Extract<
  NonNullable<OperationObject['responses'][string]>,
  { description: string }
>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const DESCRIPTION = `Daily 06:00 boards, live ranks, rating histories, matchmaking and tournaments of the ladders.

Conventions (ADR 30):
- Every API path is under /v1. The unversioned paths of before (/ladders/…, /tournaments/…) still answer the same, for one release, marked deprecated: a Deprecation header and a Link to the /v1 path.
- Every error is an RFC 9457 problem document (application/problem+json) with the request's requestId; a 400 lists what was wrong under errors.
- Every answer carries X-Request-Id: the caller's (1 to 128 of A-Z a-z 0-9 . _ : ~ -) or a new UUID.
- A daily board's page carries an ETag and answers 304 to a matching If-None-Match; a page of a dated board is public for a day, of the newest board for a minute; live answers are no-cache.
- Reading is public, limited per client (429). Game servers send results with POST /v1/games and ask what became of them with GET /v1/events/{id}, with a service token (Bearer) that names their ladders (ADR 34); those answer 401 without a valid token and 403 outside its ladders.`;

/** Versioning and the rest of the app's setup that the document depends on (main and the generator). */
export function configureApi(app: INestApplication): void {
  app.enableVersioning({ type: VersioningType.URI });
}

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers the document describes, once, in components. */
const HEADERS = {
  'X-Request-Id': {
    description: "the request's id: the caller's X-Request-Id when acceptable, else a new UUID",
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:~-]{1,128}$' },
  },
  Deprecation: {
    description: 'RFC 9745: this unversioned path is deprecated since this instant (a Unix time)',
    schema: { type: 'string', example: '@1796428800' },
  },
  Link: {
    description: 'the /v1 path that replaces this one (rel="successor-version")',
    schema: { type: 'string', example: '</v1/ladders>; rel="successor-version"' },
  },
};

const operations = (item: PathItemObject): OperationObject[] =>
  METHODS.flatMap((method) => (item[method] ? [item[method]] : []));

const responses = (operation: OperationObject): ResponseObject[] =>
  Object.values(operation.responses ?? {}).filter(
    (r): r is ResponseObject => typeof r === 'object' && r !== null && !('$ref' in r),
  );

/**
 * The deprecated alias of a /v1 path item: the same operations under the old path, marked
 * deprecated, their ids suffixed `Unversioned`, every answer with Deprecation and Link.
 */
function unversioned(item: PathItemObject): PathItemObject {
  const copy = structuredClone(item);
  for (const operation of operations(copy)) {
    operation.deprecated = true;
    operation.operationId = `${operation.operationId}Unversioned`;
    operation.summary = `Deprecated: the unversioned path of ${operation.operationId.replace(/Unversioned$/, '')}; use /v1`;
    for (const response of responses(operation))
      response.headers = {
        ...response.headers,
        Deprecation: ref('Deprecation'),
        Link: ref('Link'),
      };
  }
  return copy;
}

/**
 * The service's OpenAPI document, as served at /docs/json and committed as
 * apps/leaderboard-service/openapi.json: Nest's scan of the controllers, plus X-Request-Id on
 * every answer and the deprecated unversioned aliases of the /v1 paths (after them, so the
 * /v1 operations come first).
 */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('ranking leaderboards')
      .setDescription(DESCRIPTION)
      .setVersion('1')
      .addBearerAuth({ ...INGESTION_TOKEN_SCHEME_OBJECT }, INGESTION_TOKEN_SCHEME)
      .build(),
  );
  document.components = { ...document.components, headers: HEADERS };
  for (const item of Object.values(document.paths))
    for (const operation of operations(item))
      for (const response of responses(operation))
        response.headers = { 'X-Request-Id': ref('X-Request-Id'), ...response.headers };
  const aliases: Record<string, PathItemObject> = {};
  for (const [path, item] of Object.entries(document.paths))
    if (path.startsWith(`${API_PREFIX}/`) && hasVersionedSuccessor(path.slice(API_PREFIX.length)))
      aliases[path.slice(API_PREFIX.length)] = unversioned(item);
  document.paths = { ...document.paths, ...aliases };
  return document;
}
