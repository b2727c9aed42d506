/**
 * Upserts members of a board's current version (the live board). KEYS: meta; ARGV: entry count,
 * then member, score, ranked ('1'/'0') and row per entry, then the update time. Answers 0 when
 * the board does not exist.
 */
export const LIVE_LUA = `
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 0 end
local z = KEYS[1] .. ':' .. version .. ':z'
local h = KEYS[1] .. ':' .. version .. ':h'
local n = tonumber(ARGV[1])
for i = 0, n - 1 do
  local member, score, ranked, data = ARGV[2 + i * 4], ARGV[3 + i * 4], ARGV[4 + i * 4], ARGV[5 + i * 4]
  redis.call('HSET', h, member, data)
  if ranked == '1' then redis.call('ZADD', z, score, member) else redis.call('ZREM', z, member) end
end
redis.call('HSET', KEYS[1], 'count', redis.call('ZCARD', z), 'updatedAt', ARGV[2 + n * 4])
return 1
`;
