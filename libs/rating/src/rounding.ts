/** RULES.md's round(x) = floor(x + 0.5): halves go up, also for negatives. */
export const roundHalfUp = (x: number): number => Math.floor(x + 0.5);

/** Rounds to the ladder's step (1 for integer ladders, 0.5 for half-point ladders). */
export const roundToStep = (x: number, step: number): number =>
  step === 1 ? roundHalfUp(x) : roundHalfUp(x / step) * step;
