import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The skill estimate beside the official state (ADR 19), and what a board as of any moment
 * needs (ADR 20):
 * - `ladder_players`: each player's estimate and the finish of the last game it counted (epoch
 *   ms). No index: every game rewrites them, and an index would cost those updates their HOT
 *   path (see DropPlayerRatingIndex); the matchmaking API keeps its own index in memory.
 * - `ladder_games.skill`: what a correction needs of the estimate (`skill-record-codec.ts`).
 * - `rating_history`: the player's board fields after the change (so the latest row by an
 *   instant is the player as the live board showed them then) and the estimate before and
 *   after. Rows written before this migration hold nulls there.
 */
export class SkillAndStandings1765500000000 implements MigrationInterface {
  name = 'SkillAndStandings1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ladder_players
        ADD COLUMN skill_mu double precision,
        ADD COLUMN skill_sigma double precision,
        ADD COLUMN last_played_at bigint`);
    await db.query('ALTER TABLE ladder_games ADD COLUMN skill text');
    await db.query(`
      ALTER TABLE rating_history
        ADD COLUMN games integer,
        ADD COLUMN wins integer,
        ADD COLUMN losses integer,
        ADD COLUMN draws integer,
        ADD COLUMN rated_games integer,
        ADD COLUMN level integer,
        ADD COLUMN skill_mu_before double precision,
        ADD COLUMN skill_sigma_before double precision,
        ADD COLUMN skill_mu_after double precision,
        ADD COLUMN skill_sigma_after double precision`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE rating_history
        DROP COLUMN games, DROP COLUMN wins, DROP COLUMN losses, DROP COLUMN draws,
        DROP COLUMN rated_games, DROP COLUMN level,
        DROP COLUMN skill_mu_before, DROP COLUMN skill_sigma_before,
        DROP COLUMN skill_mu_after, DROP COLUMN skill_sigma_after`);
    await db.query('ALTER TABLE ladder_games DROP COLUMN skill');
    await db.query(`
      ALTER TABLE ladder_players
        DROP COLUMN skill_mu, DROP COLUMN skill_sigma, DROP COLUMN last_played_at`);
  }
}
