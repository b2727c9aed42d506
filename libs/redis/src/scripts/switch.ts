/**
 * The switch: the meta hash names the version readers use; one atomic script flips it and
 * announces it on the switches channel (the ladder as message) to processes that cache heads.
 * The channel is an argument, not a key: it is no key of the ladder's slot, and PUBLISH reaches
 * every node of a cluster. KEYS: meta, days index; ARGV: channel, board, day score or '',
 * ladder, meta fields... Answers the previous version (nil when none).
 */
export const SWITCH_LUA = `
local old = redis.call('HGET', KEYS[1], 'version')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2]) end
redis.call('PUBLISH', ARGV[1], ARGV[4])
return old
`;
