// Kafka topics of the wire contract. Message key on ladder-events = the ladder id.
export const TOPICS = {
  ladderEvents: 'ranking.ladder-events',
  ratingChanges: 'ranking.rating-changes',
  deadLetter: 'ranking.dead-letter',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** Headers a dead-lettered message carries. */
export const DEAD_LETTER_HEADERS = {
  reason: 'x-reject-reason',
  detail: 'x-reject-detail',
} as const;
