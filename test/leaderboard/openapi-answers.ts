/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is read untyped */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** The committed OpenAPI document of the leaderboard service (`npm run openapi` writes it). */
export const COMMITTED_OPENAPI = 'apps/leaderboard-service/openapi.json';

export const committedOpenApi = (): any => JSON.parse(readFileSync(COMMITTED_OPENAPI, 'utf8'));

/** An answer as the check reads it. */
export interface RawAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/**
 * An OpenAPI 3.0 schema as JSON Schema: `nullable` as an `anyOf` with null (Ajv will not take
 * `nullable` beside `allOf`), and, so that an undocumented field fails the check, no property
 * beyond those listed where an object lists its properties.
 */
function jsonSchema(node: any): any {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node;
  const out: any = {};
  for (const [key, value] of Object.entries(rest))
    out[key] = key === 'example' || key === 'examples' ? value : jsonSchema(value);
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * Checks answers of the running service against the committed document: the operation of the
 * method and path, the status among its responses, the media type among the response's, and
 * the body against its schema.
 */
export class OpenApiAnswers {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { path: string; pattern: RegExp }[];

  constructor(private readonly document: any = committedOpenApi()) {
    addFormats.default(this.ajv);
    this.ajv.addSchema({
      $id: 'openapi.json',
      components: { schemas: jsonSchema(document.components.schemas) },
    });
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The documented path a concrete one is an instance of (a literal segment before a parameter). */
  template(url: string): string | null {
    const path = url.split('?', 1)[0]!;
    const matches = this.templates.filter((t) => t.pattern.test(path));
    matches.sort((a, b) => b.path.split('{').length - a.path.split('{').length);
    return matches.at(-1)?.path ?? null;
  }

  /** What is wrong with an answer to `method url`, by the document; empty when it conforms. */
  problems(method: string, url: string, answer: RawAnswer): string[] {
    const path = this.template(url);
    if (path === null) return [`${url}: no documented path`];
    const operation = this.document.paths[path][method.toLowerCase()];
    if (!operation) return [`${method} ${path}: not documented`];
    const response = operation.responses[String(answer.status)];
    if (!response) return [`${method} ${path}: status ${answer.status} not documented`];
    const where = `${method} ${url} → ${answer.status}`;
    if (response.content === undefined)
      return answer.text === '' ? [] : [`${where}: a body where none is documented`];
    const media = answer.contentType?.split(';', 1)[0]!.trim() ?? '';
    const content = response.content[media];
    if (!content)
      return [`${where}: ${media} is not among ${Object.keys(response.content).join(', ')}`];
    const key = JSON.stringify(content.schema);
    let validate = this.validators.get(key);
    if (!validate) {
      const schema = JSON.parse(
        JSON.stringify(jsonSchema(content.schema)).replaceAll(
          '"#/components/',
          '"openapi.json#/components/',
        ),
      );
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where}: not JSON: ${answer.text.slice(0, 200)}`];
    }
    return validate(body)
      ? []
      : [`${where}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }
}
