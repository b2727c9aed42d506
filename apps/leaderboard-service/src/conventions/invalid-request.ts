import { BadRequestException } from '@nestjs/common';
import type { ProblemError } from '@ranking/operations';
import type { ValidationError } from 'class-validator';

/** A 400 that lists each thing wrong with the request (the problem document's `errors`). */
export class InvalidRequest extends BadRequestException {
  /** `detail`: the problem's summary, when joining the errors' would be too long to read. */
  constructor(
    readonly errors: readonly ProblemError[],
    detail = errors.map((e) => e.detail).join('; '),
  ) {
    super(detail);
  }
}

/**
 * The ValidationPipe's exceptionFactory: every failed constraint of every input, nested ones
 * named by their path, as an InvalidRequest. Only queries go through the pipe with a DTO here
 * (the one body, predict's, is checked by proposedGame).
 */
export function invalidRequest(errors: ValidationError[]): InvalidRequest {
  const out: ProblemError[] = [];
  const walk = (error: ValidationError, path: string) => {
    const name = path === '' ? error.property : `${path}.${error.property}`;
    for (const detail of Object.values(error.constraints ?? {}))
      out.push({ detail, name, in: 'query' });
    for (const child of error.children ?? []) walk(child, name);
  };
  for (const error of errors) walk(error, '');
  return new InvalidRequest(out);
}
