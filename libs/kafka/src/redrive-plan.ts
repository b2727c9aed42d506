import { parseEvent, UNPROCESSABLE } from '@ranking/contracts';

/**
 * What `ranking redrive` does with the dead-letter topic (ADR 31), as plain functions: which
 * dead letters are sent again, where, under which key; and, once sent, what became of each.
 */

/** One message of the dead-letter topic, as it lies there. */
export interface DeadLetter {
  readonly partition: number;
  readonly offset: string;
  /** When it was dead-lettered (the message's timestamp), epoch ms. */
  readonly timestamp: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** `x-reject-reason`: a contract code, or `unprocessable`. */
  readonly reason: string | null;
  readonly detail: string | null;
  /** `x-rejected-by`: the consumer that set it aside. */
  readonly rejectedBy: string | null;
  /** `x-producer`: the intake's, the producer whose topic it came on (ADR 39). */
  readonly producer: string | null;
}

/** The only reason sent again: every other is the event's own fault (CONTRACT.md). */
export const REDRIVABLE_REASONS: readonly string[] = [UNPROCESSABLE];

/** Why `--reason` is refused, or undefined when it may be redriven. */
export function reasonRefusal(reason: string): string | undefined {
  if (REDRIVABLE_REASONS.includes(reason)) return undefined;
  return (
    `--reason ${reason}: only ${REDRIVABLE_REASONS.join(', ')} dead letters are sent again. ` +
    `A dead letter of reason "${reason}" is the event's own fault (CONTRACT.md): sent again, it ` +
    'is rejected again; ' +
    'its producer must send a corrected event under a new id'
  );
}

/** The way a dead letter came in: the intake topic, or the ladder log. */
export type RedriveRoute = 'intake' | 'ladder-log';

/** The consumers that dead-letter, and the topic each reads. */
const ROUTE_OF: Readonly<Record<string, RedriveRoute>> = {
  'intake-service': 'intake',
  'rating-service': 'ladder-log',
  'maintenance-service': 'ladder-log',
};

/** One message to send again, and every dead letter of it (two consumers may set one aside). */
export interface Redrive {
  readonly letters: readonly DeadLetter[];
  readonly route: RedriveRoute;
  /** The consumer whose answer tells what became of it (the first letter's). */
  readonly consumer: string;
  /** The intake: the key it came with; the ladder log: the event's ladder. */
  readonly key: Buffer | string | null;
  /** The intake: the producer whose topic it goes back to. */
  readonly producer: string | null;
  readonly value: Buffer | null;
  /** The event id the value names, when it has one. */
  readonly eventId: string | null;
}

export interface RedriveFilter {
  readonly reason: string;
  /** Only dead letters set aside at or after this instant, epoch ms. */
  readonly since?: number;
  /** Send again the dead letters an earlier run sent too. */
  readonly includeRedriven?: boolean;
}

/** What is sent, and how many dead letters were left out and why. */
export interface RedrivePlan {
  readonly redrives: readonly Redrive[];
  readonly skipped: {
    /** By reason: dead letters of another reason than the one asked. */
    readonly otherReasons: Readonly<Record<string, number>>;
    readonly beforeSince: number;
    readonly alreadyRedriven: number;
    /**
     * Dead letters whose consumer is not one of ours, or the intake's without a producer (set
     * aside before producers): where they came from is unknown.
     */
    readonly unknownOrigin: readonly DeadLetter[];
  };
}

/** A dead letter's place on its topic, as one string. */
export const letterKey = (l: Pick<DeadLetter, 'partition' | 'offset'>): string =>
  `${l.partition}:${l.offset}`;

/**
 * The dead letters to send again, in the order they lie (partition, then offset), each message
 * once: the rating and maintenance services may both set the same ladder-log message aside.
 * `redriven` holds `letterKey`s of dead letters an earlier run sent.
 */
export function planRedrive(
  letters: readonly DeadLetter[],
  filter: RedriveFilter,
  redriven: ReadonlySet<string>,
): RedrivePlan {
  const otherReasons: Record<string, number> = {};
  let beforeSince = 0;
  let alreadyRedriven = 0;
  const unknownOrigin: DeadLetter[] = [];
  const byMessage = new Map<string, { letters: DeadLetter[]; first: Omit<Redrive, 'letters'> }>();
  const ordered = [...letters].sort(
    (a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)),
  );
  for (const letter of ordered) {
    const reason = letter.reason ?? '(none)';
    if (reason !== filter.reason) {
      otherReasons[reason] = (otherReasons[reason] ?? 0) + 1;
      continue;
    }
    if (filter.since !== undefined && letter.timestamp < filter.since) {
      beforeSince++;
      continue;
    }
    if (!filter.includeRedriven && redriven.has(letterKey(letter))) {
      alreadyRedriven++;
      continue;
    }
    const route = letter.rejectedBy === null ? undefined : ROUTE_OF[letter.rejectedBy];
    if (route === undefined || (route === 'intake' && letter.producer === null)) {
      unknownOrigin.push(letter);
      continue;
    }
    const producer = route === 'intake' ? letter.producer : null;
    const same = `${route}\u0000${producer ?? ''}\u0000${letter.value?.toString('base64') ?? ''}`;
    const known = byMessage.get(same);
    if (known) {
      known.letters.push(letter);
      continue;
    }
    const parsed = parseEvent(letter.value);
    byMessage.set(same, {
      letters: [letter],
      first: {
        route,
        consumer: letter.rejectedBy!,
        // The ladder log is keyed by ladder (a ladder's events in one partition, in order).
        key: route === 'ladder-log' && parsed.ok ? parsed.event.ladder : letter.key,
        producer,
        value: letter.value,
        eventId: parsed.ok ? parsed.event.id : parsed.id,
      },
    });
  }
  return {
    redrives: [...byMessage.values()].map(({ letters: l, first }) => ({ ...first, letters: l })),
    skipped: { otherReasons, beforeSince, alreadyRedriven, unknownOrigin },
  };
}

/** What became of a message sent again. */
export type RedriveStatus = 'applied' | 'repeat' | 'rejected' | 'pending';

export interface RedriveOutcome {
  readonly status: RedriveStatus;
  /** `rejected`: the code (a contract code, or `unprocessable` again). */
  readonly code?: string;
  /** `rejected`: who rejected it. */
  readonly by?: string;
  /** How it is known (a line for the operator). */
  readonly why: string;
}

/** What the event store, the checkpoints and the rejections say of one message sent again. */
export interface RedriveObservation {
  readonly route: RedriveRoute;
  readonly consumer: string;
  /** The event id was in the event store before it was sent. */
  readonly storedBefore: boolean;
  /** It is there now. */
  readonly storedNow: boolean;
  /** Ladder log: the consumer has checkpointed past the copy's offset. */
  readonly passed: boolean;
  /** The copy's rejection: a rejected row, the intake's rejection topic or a new dead letter. */
  readonly rejection?: { readonly code: string; readonly by: string };
}

/**
 * The outcome of one message sent again. The rating service applies an event id once: a copy of
 * a stored event is a repeat once the service has passed it. The maintenance service keeps no
 * trace of each event, so passed without a rejection is all it can say: applied. The intake
 * moves an admitted copy onto the ladder log where ops may not read, so a copy of an event the
 * store already held can only be a repeat (unless the intake rejects it).
 */
export function redriveOutcome(o: RedriveObservation): RedriveOutcome {
  if (o.rejection)
    return {
      status: 'rejected',
      code: o.rejection.code,
      by: o.rejection.by,
      why: `rejected again by ${o.rejection.by}: ${o.rejection.code}`,
    };
  if (o.route === 'ladder-log' && o.consumer === 'maintenance-service')
    return o.passed
      ? { status: 'applied', why: 'the maintenance service took it without a rejection' }
      : { status: 'pending', why: 'the maintenance service has not reached it yet' };
  if (o.storedNow && !o.storedBefore)
    return { status: 'applied', why: 'in the event store now, and not before' };
  if (o.storedBefore && (o.route === 'intake' || o.passed))
    return {
      status: 'repeat',
      why:
        o.route === 'intake'
          ? 'in the event store before it was sent: the fold ignores the copy'
          : 'in the event store before it was sent, and the rating service has passed the copy',
    };
  return {
    status: 'pending',
    why: o.passed
      ? 'passed without a trace (neither stored nor rejected)'
      : `${o.route === 'intake' ? 'the intake and ' : ''}the rating service ${o.route === 'intake' ? 'have' : 'has'} not reached it yet`,
  };
}
