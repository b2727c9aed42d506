import type { PlayerAnnulled } from '@ranking/contracts';
import { type Annulment, annulmentOf } from '@ranking/rating';
import { LadderRepository } from './ladder-repository.js';
import type { Sql } from './sql.js';

/**
 * The annulments of one ladder's stored log, where they stand in it, as the caller's
 * connection sees the store: a fold of the streamed log (`LadderFold.refolding`) needs them
 * before it starts.
 */
export async function storedAnnulments(sql: Sql, ladder: string): Promise<Annulment[]> {
  const rows = await new LadderRepository(sql).annulmentTexts(ladder);
  return rows.map((r) => annulmentOf(JSON.parse(r.payload) as PlayerAnnulled, r.position));
}
