/**
 * Helpers the read scripts share (prepended to each). Every key a script is given belongs to one
 * ladder, so in a Redis Cluster it lies in the ladder's slot (see BoardStore's key layout); keys
 * built inside a script (`board .. ':' .. version .. ':z'`) keep the ladder's hash tag too.
 */
export const SLICE_LUA = `
local out = {'ok'}
local function put(v) out[#out + 1] = v end
-- A slice: meta pair count and pairs, start, first rank, total, item count, then per item
-- member, score and row ('' when the row is missing).
local function slice(z, h, m, start, stop)
  local items = redis.call('ZRANGE', z, start, stop, 'WITHSCORES')
  local first = 0
  if #items > 0 then first = redis.call('ZCOUNT', z, '-inf', '(' .. items[2]) + 1 end
  local members = {}
  for i = 1, #items, 2 do members[#members + 1] = items[i] end
  local rows = {}
  if #members > 0 then rows = redis.call('HMGET', h, unpack(members)) end
  put(#m / 2)
  for i = 1, #m do put(m[i]) end
  put(start)
  put(first)
  put(redis.call('ZCARD', z))
  put(#members)
  for i = 1, #members do
    put(members[i])
    put(items[i * 2])
    put(rows[i] or '')
  end
  return rows
end
-- A board's meta key; an empty name means the newest daily board of the ladder's index.
local function resolve(base, days, name)
  if name == '' then
    local newest = redis.call('ZREVRANGE', days, 0, 0)
    if #newest == 0 then return nil end
    name = newest[1]
  end
  return base .. name, name
end
local function keys(board)
  local m = redis.call('HGETALL', board)
  if #m == 0 then return nil end
  local version
  for i = 1, #m, 2 do if m[i] == 'version' then version = m[i + 1] end end
  return m, board .. ':' .. version .. ':z', board .. ':' .. version .. ':h'
end
`;
