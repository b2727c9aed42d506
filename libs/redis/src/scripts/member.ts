import { SLICE_LUA } from './slice.js';

/**
 * A member on several boards of one ladder. KEYS as the page script's; ARGV: member, around,
 * then the boards ('' = the newest daily board). Per board: '0' when it does not exist, else
 * '1', the member's index ('' when not ranked), the slice around it and the member's row (''
 * when none; read from the slice when ranked).
 */
export const MEMBER_LUA = `${SLICE_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unready' end
local around = tonumber(ARGV[2])
for b = 3, #ARGV do
  local board, name = resolve(KEYS[2], KEYS[3], ARGV[b])
  local m, z, h
  if board ~= nil then m, z, h = keys(board) end
  if m == nil then
    put('0')
  else
    m[#m + 1] = 'name'
    m[#m + 1] = name
    put('1')
    local r = redis.call('ZRANK', z, ARGV[1])
    if r then
      put(r)
      local from = r - around
      if from < 0 then from = 0 end
      local rows = slice(z, h, m, from, r + around)
      put(rows[r - from + 1] or '')
    else
      put('')
      slice(z, h, m, 1, 0)
      put(redis.call('HGET', h, ARGV[1]) or '')
    end
  end
end
return table.concat(out, '\\255')
`;
