import type { LadderConfig } from './ladder-config.js';
import type { GameRow, LadderFold, LadderSnapshot } from './ladder-fold.js';
import type { StoredSnapshot } from './ladder-store.js';
import type { PlayerState } from './player-state.js';
import type { SkillState } from './skill-book.js';

/**
 * The snapshot format, and so the fold's semantics it was written under. Bump it whenever the
 * fold's state or what it does with an event changes: a snapshot of another format is ignored
 * (a re-fold then starts further back, which costs time, never correctness). The pinned fold
 * digest in store-fold.spec.ts fails when the fold changes and this was not bumped.
 */
export const SNAPSHOT_FORMAT = 2;

/** The first line of a snapshot. */
export interface SnapshotHeader {
  readonly format: number;
  readonly ladder: string;
  /** The ladder's configuration as text: a snapshot of a ladder configured otherwise is ignored. */
  readonly config: string;
  readonly position: number;
  readonly lastEventId: string;
  readonly closed: readonly string[];
  readonly skill: boolean;
}

/** What a ladder's fold depends on in its configuration, as text (compared, never parsed). */
export function ladderConfigKey(ladder: LadderConfig): string {
  const { id, ruleSet, startRating, precision, timezone, rankedAfter, params } = ladder;
  return JSON.stringify([id, ruleSet, startRating, precision, timezone, rankedAfter, params]);
}

/**
 * A fold's state as text lines (ADR 24): a header, then one line per player (`P`), per skill
 * estimate (`S`) and per game record with its saved estimates (`G`, the rows the rating
 * service stores, tab-separated). Lines, so that a store writes and reads a large ladder in parts.
 */
export function* encodeSnapshot(fold: LadderFold, lastEventId: string): Generator<string> {
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    ladder: fold.ladder.id,
    config: ladderConfigKey(fold.ladder),
    position: fold.accepted,
    lastEventId,
    closed: fold.closedPeriods(),
    skill: fold.skill !== null,
  };
  yield JSON.stringify(header);
  for (const p of fold.players.values()) yield `P${JSON.stringify(p)}`;
  for (const [id, s] of fold.skill?.players ?? [])
    yield `S${JSON.stringify([id, s.mu, s.sigma, s.lastPlayedAt])}`;
  // A game as `G` + its id's JSON, a tab, the stored record, a tab, the saved estimates (empty:
  // none): the stored texts as they are (JSON and numbers: never a raw tab), so reading one
  // back parses nothing but, now and then, an id with escapes.
  for (const [id, record, skill] of fold.gameRows())
    yield `G${JSON.stringify(id)}\t${record}\t${skill ?? ''}`;
}

/** Why a snapshot's first line makes it unusable for a ladder, or null when it is usable. */
export function snapshotMismatch(header: SnapshotHeader, ladder: LadderConfig): string | null {
  if (header.format !== SNAPSHOT_FORMAT)
    return `format ${header.format}, this code reads ${SNAPSHOT_FORMAT}`;
  if (header.ladder !== ladder.id) return `ladder ${header.ladder}`;
  if (header.config !== ladderConfigKey(ladder)) return 'the ladder was configured otherwise';
  return null;
}

/** Reads a snapshot's lines back (header first) into the state `LadderFold.restore` takes. */
export class SnapshotDecoder {
  private header: SnapshotHeader | null = null;
  private readonly players: PlayerState[] = [];
  private readonly skills: (SkillState & { readonly id: string })[] = [];
  private readonly games: GameRow[] = [];

  constructor(private readonly ladder: LadderConfig) {}

  /** The header, once read. */
  get first(): SnapshotHeader | null {
    return this.header;
  }

  /** One line; throws on a line that is not the format's. */
  line(text: string): void {
    if (this.header === null) {
      this.header = JSON.parse(text) as SnapshotHeader;
      return;
    }
    const body = text.slice(1);
    switch (text[0]) {
      case 'P':
        this.players.push(JSON.parse(body) as PlayerState);
        return;
      case 'S': {
        const [id, mu, sigma, lastPlayedAt] = JSON.parse(body) as [
          string,
          number,
          number,
          number | null,
        ];
        this.skills.push({ id, mu, sigma, lastPlayedAt });
        return;
      }
      case 'G': {
        // Kept as stored: the fold decodes a game only when an event reads it.
        const a = body.indexOf('\t');
        const b = body.indexOf('\t', a + 1);
        if (a < 0 || b < 0)
          throw new Error(`snapshot of ${this.ladder.id}: a game line without its tabs`);
        const idText = body.slice(0, a);
        const id = idText.includes('\\') ? (JSON.parse(idText) as string) : idText.slice(1, -1);
        const skill = body.slice(b + 1);
        this.games.push([id, body.slice(a + 1, b), skill === '' ? null : skill]);
        return;
      }
      default:
        throw new Error(`snapshot of ${this.ladder.id}: unknown line kind ${text.slice(0, 1)}`);
    }
  }

  result(): StoredSnapshot {
    const header = this.header;
    if (header === null) throw new Error(`snapshot of ${this.ladder.id}: no header`);
    const state: LadderSnapshot = {
      ladder: header.ladder,
      players: this.players,
      games: [],
      storedGames: this.games,
      closed: header.closed,
      accepted: header.position,
      ...(header.skill ? { skill: { players: this.skills, games: [] } } : {}),
    };
    return { position: header.position, lastEventId: header.lastEventId, state };
  }
}
