import { SLICE_LUA } from './slice.js';

/**
 * A page in board order after a cursor. KEYS: the ladder's ready marker, board key base, days
 * index; ARGV: cursor member, cursor score, limit, board ('' = the newest daily board), and the
 * 0-based position to start at when there is no cursor.
 * Answers a flat reply (see flat-reply.ts), 'unready' without the marker, nil without the board.
 */
export const PAGE_LUA = `${SLICE_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unready' end
local board, name = resolve(KEYS[2], KEYS[3], ARGV[4])
if board == nil then return nil end
local m, z, h = keys(board)
if m == nil then return nil end
m[#m + 1] = 'name'
m[#m + 1] = name
local start = 0
if ARGV[1] ~= '' then
  local r = redis.call('ZRANK', z, ARGV[1])
  local s = redis.call('ZSCORE', z, ARGV[1])
  if r and s == ARGV[2] then start = r + 1 else start = redis.call('ZCOUNT', z, '-inf', ARGV[2]) end
else
  start = tonumber(ARGV[5])
end
slice(z, h, m, start, start + tonumber(ARGV[3]) - 1)
return table.concat(out, '\\255')
`;
