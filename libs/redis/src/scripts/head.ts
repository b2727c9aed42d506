import { SLICE_LUA } from './slice.js';

/**
 * Which version of a board a read would see: cheap, for callers that cache immutable pages.
 * KEYS as the page script's; ARGV: board ('' = the newest daily board). Answers {name, version}.
 */
export const HEAD_LUA = `${SLICE_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unready' end
local board, name = resolve(KEYS[2], KEYS[3], ARGV[1])
if board == nil then return nil end
local version = redis.call('HGET', board, 'version')
if not version then return nil end
return {name, version}
`;
