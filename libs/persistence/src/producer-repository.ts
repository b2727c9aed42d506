import type { Producer } from '@ranking/contracts';
import type { Sql } from './sql.js';

/** A producer as the registry keeps it. */
export interface RegisteredProducer extends Producer {
  /** It may also write the ladder log (the simulator's history: `ranking setup --with-simulator`). */
  readonly backfill: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface ProducerRow {
  name: string;
  ladders: string[];
  backfill: boolean;
  created_at: Date;
  updated_at: Date;
}

const registered = (r: ProducerRow): RegisteredProducer => ({
  name: r.name,
  ladders: r.ladders,
  backfill: r.backfill,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The producers (`producers`, ADR 39): who may write which ladders through the intake. */
export class ProducerRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Adds the producer or sets its ladders (sorted, once each); answers it and whether it is new.
   * `backfill` is changed only when given.
   */
  async upsert(
    name: string,
    ladders: readonly string[],
    backfill?: boolean,
  ): Promise<{ producer: RegisteredProducer; created: boolean }> {
    const [row] = await this.sql.query<ProducerRow & { created: boolean }>(
      `INSERT INTO producers (name, ladders, backfill) VALUES ($1, $2, coalesce($3, false))
       ON CONFLICT (name) DO UPDATE
         SET ladders = EXCLUDED.ladders,
             backfill = coalesce($3, producers.backfill),
             updated_at = CASE
               WHEN producers.ladders = EXCLUDED.ladders
                AND producers.backfill = coalesce($3, producers.backfill)
               THEN producers.updated_at ELSE now() END
       RETURNING name, ladders, backfill, created_at, updated_at, (xmax = 0) AS created`,
      [name, [...new Set(ladders)].sort(), backfill ?? null],
    );
    return { producer: registered(row!), created: row!.created };
  }

  async get(name: string): Promise<RegisteredProducer | null> {
    const rows = await this.sql.query<ProducerRow>(
      'SELECT name, ladders, backfill, created_at, updated_at FROM producers WHERE name = $1',
      [name],
    );
    return rows[0] ? registered(rows[0]) : null;
  }

  async list(): Promise<RegisteredProducer[]> {
    const rows = await this.sql.query<ProducerRow>(
      'SELECT name, ladders, backfill, created_at, updated_at FROM producers ORDER BY name',
    );
    return rows.map(registered);
  }

  /**
   * Removes the producer and revokes its tokens (kept, for the record, with no producer); false
   * when there was none. One statement: the tokens stop working with the row.
   */
  async remove(name: string): Promise<boolean> {
    const rows = await this.sql.query<{ name: string }>(
      `WITH revoked AS (
         UPDATE service_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE producer = $1
       )
       DELETE FROM producers WHERE name = $1 RETURNING name`,
      [name],
    );
    return rows.length > 0;
  }
}
