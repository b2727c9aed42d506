import { Controller, ForbiddenException, Get, Param, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { rfc3339Millis } from '@ranking/contracts';
import { mayUseLadder, type ServiceGrant } from '@ranking/ingestion';
import { InvalidRequest } from '../conventions/invalid-request.js';
import { Grant, NeedsScope } from '../ingestion/service-token-hook.js';
import { IntegrityWatch } from './integrity-watch.js';

const mayReview = (grant: ServiceGrant, ladder: string): void => {
  if (!mayUseLadder(grant, ladder))
    throw new ForbiddenException(
      `this token (${grant.tokenId}, ${grant.service}) may review ${grant.ladders.join(', ')}, not ${ladder}`,
    );
};

/**
 * The support staff's integrity routes (ADR 35), behind a `review` token and outside the
 * public API (not under /v1, not in its OpenAPI document): who the token is, each ladder's
 * suspects (refreshed as games arrive), a pair's games for the timeline, and an annulment's
 * dry run. A token reviews only its own ladders. The suspects' judging and the dry run run on
 * the review's worker threads (ADR 41): with every worker and queue place taken they are 503
 * with Retry-After. Every answer is `Cache-Control: no-store`.
 */
@ApiExcludeController()
@Controller('review/api')
@NeedsScope('review')
export class ReviewController {
  constructor(private readonly watch: IntegrityWatch) {}

  @Get('whoami')
  whoami(@Grant() grant: ServiceGrant) {
    return { tokenId: grant.tokenId, service: grant.service, ladders: grant.ladders };
  }

  @Get('ladders/:ladder/suspects')
  suspects(@Param('ladder') ladder: string, @Grant() grant: ServiceGrant) {
    mayReview(grant, ladder);
    return this.watch.of(ladder).suspects();
  }

  @Get('ladders/:ladder/pairs/:beneficiary/:feeder')
  async pair(
    @Param('ladder') ladder: string,
    @Param('beneficiary') beneficiary: string,
    @Param('feeder') feeder: string,
    @Grant() grant: ServiceGrant,
  ) {
    mayReview(grant, ladder);
    const games = await this.watch.of(ladder).pairGames(beneficiary, feeder);
    return {
      ladder,
      players: [beneficiary, feeder],
      games: games.map((d) => ({
        gameId: d.gameId,
        finishedAt: d.finishedAt,
        score: d.sides.find((s) => s.player === beneficiary)!.score,
      })),
    };
  }

  @Get('ladders/:ladder/dry-run')
  dryRun(
    @Param('ladder') ladder: string,
    @Query('player') player: string | undefined,
    @Query('since') since: string | undefined,
    @Grant() grant: ServiceGrant,
  ) {
    mayReview(grant, ladder);
    const errors = [
      ...(player === undefined || player === ''
        ? [{ detail: 'player is required', name: 'player', in: 'query' as const }]
        : []),
      ...(since === undefined || Number.isNaN(rfc3339Millis(since))
        ? [
            {
              detail: 'since must be an RFC 3339 instant with an offset',
              name: 'since',
              in: 'query' as const,
            },
          ]
        : []),
    ];
    if (errors.length > 0) throw new InvalidRequest(errors);
    return this.watch.dryRun(ladder, player!, since!);
  }
}
