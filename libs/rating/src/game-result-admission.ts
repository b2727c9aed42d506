import {
  type GameFinished,
  type IntakeRejection,
  isReservedId,
  NOT_PERMITTED,
  parseEvent,
  type Producer,
  producerIdPrefix,
  reject,
  safeDetail,
} from '@ranking/contracts';
import type { LadderConfig } from './ladder-config.js';
import { LadderFold } from './ladder-fold.js';

/** What the intake decided of one game server's message. */
export type Admission =
  | { readonly admitted: true; readonly event: GameFinished; readonly ladder: string }
  | { readonly admitted: false; readonly rejection: IntakeRejection; readonly id: string | null };

const refused = (rejection: IntakeRejection, id: string | null): Admission => ({
  admitted: false,
  rejection,
  id,
});

/**
 * The intake's decision (CONTRACT.md "Transport"): a game server, a named producer, may send
 * `game.finished` alone, under an id that is neither reserved for the system nor outside its
 * own namespace (`<producer>:`), for one of its own ladders, and only what the fold would
 * accept for what it holds. Checked in the contract's order: size (before decoding), JSON,
 * schema, type, reserved id, the producer's namespace, the producer's ladders, the ladder, then
 * the rule set's checks of the game itself. Pure: the same bytes, producer and ladders give the
 * same decision. Kafka and HTTP both decide through here, each naming the producer it knows.
 */
export class GameResultAdmission {
  /** One fold a ladder, never evolved: it judges games by what they hold, not by history. */
  private readonly judges = new Map<string, LadderFold>();

  constructor(private readonly ladders: ReadonlyMap<string, LadderConfig>) {}

  admit(value: Uint8Array | null, producer: Producer): Admission {
    // parseEvent decides the size first, before decoding (CONTRACT.md "Transport", Size).
    const parsed = parseEvent(value);
    if (!parsed.ok) return refused(parsed.rejection, parsed.id);
    const { event } = parsed;
    if (event.type !== 'game.finished')
      return refused(
        notPermitted(`a game server may send game.finished only, not ${event.type}`),
        event.id,
      );
    if (isReservedId(event.id))
      return refused(
        notPermitted(`the id "${event.id}" is reserved for the system and its operators`),
        event.id,
      );
    if (!event.id.startsWith(producerIdPrefix(producer.name)))
      return refused(
        notPermitted(
          `the producer ${producer.name} sends ids that begin with "${producerIdPrefix(producer.name)}", not "${event.id}"`,
        ),
        event.id,
      );
    if (!producer.ladders.includes(event.ladder))
      return refused(
        notPermitted(
          `the producer ${producer.name} may write ${producer.ladders.join(', ') || 'no ladder'}, not ${event.ladder}`,
        ),
        event.id,
      );
    const ladder = this.ladders.get(event.ladder);
    if (!ladder) return refused(reject('unknown-ladder', `no ladder ${event.ladder}`), event.id);
    const rejection = this.judgeOf(ladder).rejectionOf(event);
    if (rejection) return refused(rejection, event.id);
    return { admitted: true, event, ladder: ladder.id };
  }

  private judgeOf(ladder: LadderConfig): LadderFold {
    let judge = this.judges.get(ladder.id);
    if (!judge) this.judges.set(ladder.id, (judge = new LadderFold(ladder)));
    return judge;
  }
}

const notPermitted = (detail: string): IntakeRejection => ({
  code: NOT_PERMITTED,
  detail: safeDetail(detail),
});
