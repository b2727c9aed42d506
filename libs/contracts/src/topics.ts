// Kafka topics of the wire contract. Message key on ladder-events = the ladder id.
export const TOPICS = {
  /**
   * The intake: what game servers publish (game.finished alone), whatever its key. Each producer
   * has a topic of its own under this name as a prefix (`producerTopic`, ADR 39).
   */
  gameResults: 'ranking.game-results',
  /** The intake's rejections, each producer's under this prefix (`producerRejectionTopic`). */
  gameResultsRejected: 'ranking.game-results.rejected',
  /** The ladder log: every event that changes a ladder, written by the system's principals. */
  ladderEvents: 'ranking.ladder-events',
  ratingChanges: 'ranking.rating-changes',
  deadLetter: 'ranking.dead-letter',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** Headers a dead-lettered message carries (and a rejection of the intake: reason and detail). */
export const DEAD_LETTER_HEADERS = {
  reason: 'x-reject-reason',
  detail: 'x-reject-detail',
  /** The consumer that rejected it (the rating service, or maintenance for `unprocessable`). */
  consumer: 'x-rejected-by',
  /** The intake's: the producer whose topic it came on (ADR 39), where a redrive sends it. */
  producer: 'x-producer',
  /**
   * A value over 65,536 bytes comes back cut to its first 65,536 (ADR 36): its original length
   * and SHA-256 (hex), to match it to what was sent. The same for a key over 65,536 bytes.
   */
  originalValueBytes: 'x-original-value-bytes',
  originalValueSha256: 'x-original-value-sha256',
  originalKeyBytes: 'x-original-key-bytes',
  originalKeySha256: 'x-original-key-sha256',
} as const;

/**
 * The live services' own dead-letter reason (CONTRACT.md): a message that passed every check
 * but could not be applied, set aside so that its partition moves on. Never in the offline
 * replay, which accepted it.
 */
export const UNPROCESSABLE = 'unprocessable' as const;
