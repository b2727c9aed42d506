import { instantMillis, type LadderEvent } from '@ranking/contracts';
import { type Annulment, annulmentsOf } from './annulment.js';
import type { LadderConfig } from './ladder-config.js';
import type { LadderFold } from './ladder-fold.js';
import { encodeSnapshot, SnapshotDecoder, snapshotMismatch } from './ladder-snapshot-codec.js';
import type { LadderStore, StoredSnapshot } from './ladder-store.js';
import { ReplayEngine } from './replay-engine.js';

/**
 * A ladder store in memory for the core's specs: one ladder's log and its snapshots, kept as
 * encoded lines (so every use goes through the codec, as PostgreSQL's store does).
 */
export class MemoryLadderStore implements LadderStore {
  private readonly snapshots = new Map<number, string[]>();
  /** How many events `events` handed out, over all calls. */
  read = 0;

  constructor(
    private readonly ladder: LadderConfig,
    readonly log: readonly LadderEvent[],
    private readonly batch = 7,
  ) {}

  save(fold: LadderFold): void {
    const position = fold.accepted;
    const lastEventId = position === 0 ? '' : this.log[position - 1]!.id;
    this.snapshots.set(position, [...encodeSnapshot(fold, lastEventId)]);
  }

  /** A snapshot's lines, to damage in a test. */
  lines(position: number): string[] | undefined {
    return this.snapshots.get(position);
  }

  async *events(_ladder: string, after: number, upTo: number) {
    for (let at = after; at < upTo; at += this.batch) {
      const batch = this.log.slice(at, Math.min(at + this.batch, upTo));
      this.read += batch.length;
      // A store's read takes a turn of the event loop, as PostgreSQL's does.
      yield await Promise.resolve(batch);
    }
  }

  lastPosition(): Promise<number> {
    return Promise.resolve(this.log.length);
  }

  annulments(): Promise<readonly Annulment[]> {
    return Promise.resolve(annulmentsOf(this.log));
  }

  firstCovered(_ladder: string, a: Annulment): Promise<number | null> {
    const at = this.log.findIndex(
      (e, i) =>
        i < a.position &&
        e.type === 'game.finished' &&
        instantMillis(e.finishedAt) >= a.since &&
        e.players.some((p) => p.id === a.player),
    );
    return Promise.resolve(at < 0 ? null : at);
  }

  snapshotPositions(): Promise<readonly number[]> {
    return Promise.resolve([...this.snapshots.keys()].sort((a, b) => b - a));
  }

  snapshot(_ladder: string, position: number): Promise<StoredSnapshot | null> {
    return Promise.resolve(this.decoded(position));
  }

  private decoded(position: number): StoredSnapshot | null {
    const lines = this.snapshots.get(position);
    if (!lines) return null;
    const decoder = new SnapshotDecoder(this.ladder);
    decoder.line(lines[0]!);
    if (snapshotMismatch(decoder.first!, this.ladder) !== null) return null;
    const snapshot = decoder.first!;
    if (snapshot.position > 0 && this.log[snapshot.position - 1]?.id !== snapshot.lastEventId)
      return null;
    for (const line of lines.slice(1)) decoder.line(line);
    return decoder.result();
  }
}

/** The accepted events of one ladder from a stream of lines: what its event store holds. */
export function acceptedLog(ladder: LadderConfig, lines: Iterable<string>): LadderEvent[] {
  const engine = new ReplayEngine(new Map([[ladder.id, ladder]]), { simulate: false });
  const log: LadderEvent[] = [];
  for (const line of lines) {
    const result = engine.ingestLine(line);
    if (result.kind === 'accepted') log.push(result.event);
  }
  return log;
}
