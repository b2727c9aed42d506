import fc from 'fast-check';

/**
 * fast-check draws a seed for each property and names it when the property fails
 * (`{ seed: N, path: "…" }`); RANKING_FC_SEED=N runs every property of the run from that seed,
 * so a failure replays without editing the test (with -t to pick the failing test).
 */
const seed = process.env.RANKING_FC_SEED;
if (seed !== undefined && seed !== '') {
  if (!/^-?\d+$/.test(seed) || !Number.isSafeInteger(Number(seed)))
    throw new Error(`RANKING_FC_SEED=${seed}: must be a whole number (a seed fast-check printed)`);
  fc.configureGlobal({ seed: Number(seed) });
}
