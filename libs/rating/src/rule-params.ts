import {
  Ajv2020,
  type ErrorObject,
  type SchemaObject,
  type ValidateFunction,
} from 'ajv/dist/2020.js';
import { PARAM_KEYWORDS } from './param-keywords.js';

/** One parameter's JSON Schema, with the default that reproduces RULES.md. */
export type ParamSchema<T> = SchemaObject & { readonly default: T };

/**
 * A rule set's parameters, declared once (RULES.md "Rule-set parameters"): a JSON Schema object
 * whose properties are the parameters by name, each with its default. Validation and defaults
 * both come from it.
 */
export interface ParamsDeclaration<P extends object> {
  readonly schema: SchemaObject;
  /** Every parameter at its default (frozen): the rules of RULES.md. */
  readonly defaults: P;
}

/** A ladder's params that break the declaration: the parameter and why, for one line of error. */
export class ParamError extends Error {
  constructor(
    readonly param: string,
    readonly reason: string,
  ) {
    super(`param ${JSON.stringify(param)}: ${reason}`);
  }
}

const ajv = new Ajv2020({ allErrors: false, strict: true });
for (const keyword of PARAM_KEYWORDS) ajv.addKeyword(keyword);
/** Compiled on first use: built-in ladders take the defaults and never validate. */
const validators = new WeakMap<SchemaObject, ValidateFunction>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Declares a rule set's parameters: the properties' keys and defaults must match `P`. */
export function declareParams<P extends object>(properties: {
  [K in keyof P]: ParamSchema<P[K]>;
}): ParamsDeclaration<P> {
  const defaults = Object.fromEntries(
    Object.entries<ParamSchema<unknown>>(properties).map(([name, s]) => [name, s.default]),
  );
  return {
    schema: { type: 'object', additionalProperties: false, properties },
    defaults: deepFreeze(structuredClone(defaults)) as P,
  };
}

/** What a value of the wrong JSON type must be, in the words of a configuration error. */
const TYPE_REASONS: Readonly<Record<string, string>> = {
  integer: 'must be a whole number',
  number: 'must be a number',
  array: 'must be a list of rows',
  object: 'must be an object',
};

/** An ajv error as one line: the parameter it is about, and the reason. */
function paramError(error: ErrorObject, ruleSet: string): ParamError {
  const [param = '', ...rest] = error.instancePath.split('/').slice(1);
  if (error.keyword === 'additionalProperties' && param === '') {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    return new ParamError(name, `is not a parameter of ${ruleSet}`);
  }
  // Inside a table: the row (counted from 1) and the field.
  const row = rest.length > 0 ? `row ${Number(rest[0]) + 1}: ` : '';
  const field = rest.length > 1 ? `"${rest.slice(1).join('/')}" ` : '';
  let reason: string;
  if (error.keyword === 'type') {
    const type = (error.params as { type: string }).type;
    reason = TYPE_REASONS[type] ?? `must be ${type}`;
  } else if (error.keyword === 'additionalProperties') {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    return new ParamError(param, `${row}"${name}" is not allowed`);
  } else if (error.keyword === 'required') {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return new ParamError(param, `${row}"${name}" is required`);
  } else if (error.keyword === 'minItems') {
    reason = 'must have at least one row';
  } else {
    reason = error.message ?? 'is invalid';
  }
  return new ParamError(param, `${row}${field}${reason}`);
}

/**
 * A ladder's parameters: the declaration's defaults with `overrides` (a ladder's `params`, by
 * name) put over them, validated, frozen. Done once per ladder, when the ladders are loaded.
 * Throws a ParamError naming the first bad parameter.
 */
export function resolveParams<P extends object>(
  declaration: ParamsDeclaration<P>,
  ruleSet: string,
  overrides: Readonly<Record<string, unknown>> | undefined,
): P {
  if (overrides === undefined) return declaration.defaults;
  let validate = validators.get(declaration.schema);
  if (!validate) {
    validate = ajv.compile(declaration.schema);
    validators.set(declaration.schema, validate);
  }
  if (!validate(overrides)) throw paramError(validate.errors![0]!, ruleSet);
  // The defaults' key order first: every ladder of a rule set holds params of one shape.
  return deepFreeze({ ...declaration.defaults, ...structuredClone(overrides) });
}

/** A parameter that is any number. */
export const numberParam = (defaults: number): ParamSchema<number> => ({
  type: 'number',
  default: defaults,
});

/** A whole-number parameter (gaps, K, quotas, limits, streaks, move counts), optionally bounded below. */
export const wholeParam = (defaults: number, minimum?: number): ParamSchema<number> => ({
  type: 'integer',
  ...(minimum === undefined ? {} : { minimum }),
  default: defaults,
});

/** A number parameter that must be above 0 (a divisor, a scale, a factor). */
export const positiveParam = (defaults: number): ParamSchema<number> => ({
  type: 'number',
  exclusiveMinimum: 0,
  default: defaults,
});
