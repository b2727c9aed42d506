import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

// The OpenAPI schema of the problem documents every error answers (RFC 9457), as
// problemDocument in libs/operations builds them.

@ApiSchema({ name: 'ProblemError' })
export class ProblemErrorSchema {
  @ApiProperty({ description: 'what is wrong, in words', example: 'limit must be at most 200' })
  detail!: string;
  @ApiPropertyOptional({ description: 'the input at fault', example: 'limit' })
  name?: string;
  @ApiPropertyOptional({ enum: ['query', 'path', 'header', 'body'], example: 'query' })
  in?: string;
  @ApiPropertyOptional({
    description: "an event refused by POST /v1/games: its rejection code (the contract's)",
    example: 'inconsistent-result',
  })
  code?: string;
  @ApiPropertyOptional({
    description: 'an event refused by POST /v1/games: its id, when it has a string one',
    example: 'gomoku-server-1:g-000917',
  })
  id?: string;
}

@ApiSchema({ name: 'Problem' })
export class ProblemSchema {
  @ApiProperty({
    description: 'the problem type: about:blank, the status says what kind of problem it is',
    example: 'about:blank',
  })
  type!: string;
  @ApiProperty({ description: "the status's phrase", example: 'Not Found' })
  title!: string;
  @ApiProperty({ description: 'the HTTP status', example: 404, minimum: 400, maximum: 599 })
  status!: number;
  @ApiProperty({
    description: 'what happened to this request, in words',
    example: 'unknown ladder "chess"; known ladders: qq-gomoku, igame-gomoku',
  })
  detail!: string;
  @ApiProperty({
    description: 'the path asked (without its query)',
    example: '/v1/ladders/chess/boards',
  })
  instance!: string;
  @ApiProperty({
    description: 'the X-Request-Id of the answer, in every log line of the request',
    example: '3b0f1c2e-8d4a-4f6b-9c71-2a5e0d9b7f13',
  })
  requestId!: string;
  @ApiPropertyOptional({
    type: () => ProblemErrorSchema,
    isArray: true,
    description: 'a 400: each thing wrong with the request',
  })
  errors?: ProblemErrorSchema[];
}
