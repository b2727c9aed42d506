import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_JSON } from '@ranking/operations';
import { ProblemSchema } from './problem-schema.js';

/** An error answer of an operation, as a problem document. */
export const ApiProblem = (status: number, description: string) =>
  applyDecorators(
    ApiExtraModels(ProblemSchema),
    ApiResponse({
      status,
      description,
      content: { [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemSchema) } } },
    }),
  );

/**
 * The error answers every API operation may give, on its controller: 429 past the client's
 * allowance, 503 while Redis is away, boards are rebuilt or a query runs out of time, 500 for
 * a fault of ours.
 */
export const ApiCommonProblems = () =>
  applyDecorators(
    ApiProblem(429, 'over RATE_LIMIT_PER_MINUTE requests a minute from this client (Retry-After)'),
    ApiProblem(
      503,
      'Redis away, the boards being rebuilt, every build slot taken, or a query past its time (Retry-After)',
    ),
    ApiProblem(500, 'a fault of the service; requestId names it in the log'),
  );
