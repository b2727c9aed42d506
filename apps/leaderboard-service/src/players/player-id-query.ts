import { ApiProperty } from '@nestjs/swagger';
import { isPlayerId, PLAYER_ID_RULE } from '@ranking/contracts';
import { ValidateBy } from 'class-validator';
import { HistoryQuery, PlayerQuery } from './player.query.js';

/**
 * The longest player id in UTF-16 code units, as a decoded path parameter: the contract allows
 * 128 code points, each at most two units. The service's maxParamLength.
 */
export const MAX_ID_UNITS = 256;

const ID_DESCRIPTION =
  'the player id, for every id the contract allows: ids such as "." and ".." cannot be a path segment (browsers and HTTP clients remove dot segments), so the page asks by query';

/** `id` of a query: a player id as the contract allows it. */
function IsPlayerId(): PropertyDecorator {
  return ValidateBy({
    name: 'isPlayerId',
    validator: {
      validate: (value: unknown) => isPlayerId(value),
      defaultMessage: () => `id must be a player id: ${PLAYER_ID_RULE}`,
    },
  });
}

/** Query of GET /ladders/:ladder/player: the player by id, and the profile's own query. */
export class PlayerByIdQuery extends PlayerQuery {
  @ApiProperty({ description: ID_DESCRIPTION, example: '..' })
  @IsPlayerId()
  id!: string;
}

/** Query of GET /ladders/:ladder/player/history: the player by id, and the history's query. */
export class HistoryByIdQuery extends HistoryQuery {
  @ApiProperty({ description: ID_DESCRIPTION, example: '..' })
  @IsPlayerId()
  id!: string;
}
