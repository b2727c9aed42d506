/**
 * Applies messages to a board's current version (the live board) in their order, each at most
 * once: the meta's `seq` is the last message applied (absent: unknown). One that carries no
 * member changes (a summary, entry count -1) always asks for the board to be read again, even
 * at or below it (an annulment's summary comes when it is swapped in, after messages of later
 * events: ADR 24), as a gap if its previous message lies above it; otherwise a message at or
 * below it is a duplicate and changes nothing, and one whose previous message lies above it
 * follows a lost message (a gap): a gap or a reload stops the script there, with what came
 * before it applied.
 * The board's rows, sorted set and `seq` move together, in one script.
 *
 * KEYS: meta. ARGV: the update time, the message count, then per message its previous seq,
 * seq and entry count (-1: none to apply), followed by its entries: member, op ('1' ranked,
 * '0' only in the hash, '-' removed), score, row, and how many leading '|'-separated fields the
 * row holds when the stored row's fields after them are to be kept ('0': the row is whole).
 * Answers {status, index, applied, duplicates}: 'done' (index = the message count), 'missing'
 * (no such board), 'gap' or 'reload' (index = the 0-based message it stopped at).
 */
export const SEQUENCED_LUA = `
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing', 0, 0, 0} end
local last = tonumber(redis.call('HGET', KEYS[1], 'seq') or '-1')
local lastText = nil
local z = KEYS[1] .. ':' .. version .. ':z'
local h = KEYS[1] .. ':' .. version .. ':h'
local function tail(row, fields)
  local at = 0
  for _ = 1, fields do
    at = string.find(row, '|', at + 1, true)
    if not at then return '' end
  end
  return string.sub(row, at)
end
local m = tonumber(ARGV[2])
local i = 3
local applied, duplicates = 0, 0
local status, stopped = 'done', m
for k = 0, m - 1 do
  local previous, seq, n = tonumber(ARGV[i]), tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local seqText = ARGV[i + 1]
  i = i + 3
  if n < 0 then
    if previous > last then status = 'gap' else status = 'reload' end
    stopped = k
    break
  elseif seq <= last then
    duplicates = duplicates + 1
  elseif previous > last then
    status, stopped = 'gap', k
    break
  else
    for e = 0, n - 1 do
      local j = i + e * 5
      local member, op, score, data = ARGV[j], ARGV[j + 1], ARGV[j + 2], ARGV[j + 3]
      local keep = tonumber(ARGV[j + 4])
      if op == '-' then
        redis.call('HDEL', h, member)
        redis.call('ZREM', z, member)
      else
        if keep > 0 then
          local old = redis.call('HGET', h, member)
          if old then data = data .. tail(old, keep) end
        end
        redis.call('HSET', h, member, data)
        if op == '1' then redis.call('ZADD', z, score, member) else redis.call('ZREM', z, member) end
      end
    end
    last, lastText = seq, seqText
    applied = applied + 1
  end
  if n > 0 then i = i + n * 5 end
end
if lastText then
  redis.call('HSET', KEYS[1], 'seq', lastText, 'count', redis.call('ZCARD', z), 'updatedAt', ARGV[1])
end
return {status, stopped, applied, duplicates}
`;
