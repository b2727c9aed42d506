/**
 * Releases a claim only if its holder still owns it (a claim that expired and was taken by
 * another instance is left alone). KEYS[1]: the claim; ARGV[1]: the owner. Answers 1 if released.
 */
export const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
