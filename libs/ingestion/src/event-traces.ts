/** What the system kept of one event id: the API's receipt, the event store, a service's rejection. */
export interface EventTraces {
  readonly receipt: Receipt | null;
  readonly stored: StoredEvent | null;
  readonly rejection: LoggedRejection | null;
}

/** What `POST /v1/games` recorded of an event it answered. */
export interface Receipt {
  /** The producer whose token sent it (its id is in that producer's namespace). */
  readonly producer: string;
  readonly ladder: string | null;
  readonly digest: Buffer;
  /** Sent to the intake, or refused with `code` (nothing sent). */
  readonly status: 'accepted' | 'rejected';
  readonly code: string | null;
  readonly detail: string | null;
  readonly receivedAt: Date;
}

/** The event of this id in the event store: applied to its ladder (void when voidReason is set). */
export interface StoredEvent {
  readonly ladder: string;
  readonly type: string;
  /** Its place in the ladder's log. */
  readonly position: string;
  readonly digest: Buffer;
  readonly recordedAt: Date;
  readonly voidReason: string | null;
}

/** The newest rejection a service recorded for a message with this id. */
export interface LoggedRejection {
  /** The service that refused it (the rating or maintenance service). */
  readonly by: string;
  /** The ladder log's key of the message: its ladder, by the contract. */
  readonly ladder: string | null;
  readonly code: string;
  readonly detail: string;
  readonly rejectedAt: Date;
}
