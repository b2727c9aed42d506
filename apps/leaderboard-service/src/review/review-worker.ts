// The integrity review's worker thread (ADR 41), run by ReviewPool through piscina: the CPU of
// a ladder's win-trading analysis and of an annulment's dry run, spent here rather than on the
// API's event loop. Each export is one task (review-tasks.ts); a task's error is thrown back to
// the request that asked for it.
import { duelsOf, integrityReport } from '@ranking/integrity';
import { createDataSource, PgLadderStore, sqlOf } from '@ranking/persistence';
import { type AnnulmentPreview, annulmentPreview } from '@ranking/rating';
import type { DryRunTask, JudgedLadder, JudgeTask } from './review-tasks.js';

/** The ladder's suspects, as `ranking integrity` reports them. */
export function judge({ columns, thresholds }: JudgeTask): JudgedLadder {
  const report = integrityReport(new Map([[columns.ladder, duelsOf(columns)]]), thresholds);
  return report.ladders[columns.ladder]!;
}

/**
 * The annulment's preview on the stored log, in one repeatable-read transaction so both folds
 * read the same log. A connection of the task's own, closed after it: the worker keeps nothing
 * open between tasks (piscina parks its thread meanwhile), and a task stopped at its timeout
 * takes its connection, and so its transaction, with it.
 */
export async function dryRun({
  databaseUrl,
  ladder,
  event,
}: DryRunTask): Promise<AnnulmentPreview> {
  const db = createDataSource(databaseUrl, 'leaderboard-service-review');
  await db.initialize();
  try {
    return await db.transaction('REPEATABLE READ', (manager) =>
      annulmentPreview(
        new PgLadderStore(sqlOf(manager), new Map([[ladder.id, ladder]])),
        ladder,
        event,
      ),
    );
  } finally {
    await db.destroy();
  }
}
