/**
 * A flat penalty with the ladder's floor (RULES.md): it never takes a rating below the floor,
 * and a rating at or below the floor is not penalized. No floor: the points apply as they are.
 */
export function penalize(rating: number, points: number, floor: number | null): number {
  if (floor === null) return rating + points;
  if (rating <= floor) return rating;
  return Math.max(floor, rating + points);
}
