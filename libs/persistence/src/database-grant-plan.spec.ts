import { OPTIONAL_VARIABLES } from '@ranking/config';
import { grantPlan } from './database-grant-plan.js';
import { LOGIN_ROLES, OWNER_ROLE, TABLE_GRANTS } from './database-roles.js';
import { scramSha256Verifier } from './scram-verifier.js';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

describe('database-roles.ts', () => {
  it('names tables, columns and roles as plain identifiers, and privileges PostgreSQL knows', () => {
    const names = [OWNER_ROLE, ...Object.values(LOGIN_ROLES).map((r) => r.name)];
    expect(names.filter((n) => !IDENTIFIER.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    const bad: string[] = [];
    for (const [table, grants] of Object.entries(TABLE_GRANTS)) {
      if (!IDENTIFIER.test(table)) bad.push(table);
      for (const privileges of Object.values(grants))
        for (const p of privileges ?? [])
          if (
            !/^(SELECT|INSERT|UPDATE|DELETE|UPDATE \([a-z_][a-z0-9_]*(, [a-z_][a-z0-9_]*)*\))$/.test(
              p,
            )
          )
            bad.push(`${table}: ${p}`);
    }
    expect(bad).toEqual([]);
  });

  it("reads each login role's password from a variable the configuration knows (and hides)", () => {
    for (const { passwordVariable } of Object.values(LOGIN_ROLES))
      expect(OPTIONAL_VARIABLES).toContain(passwordVariable);
  });
});

describe('grantPlan', () => {
  const plan = grantPlan('ranking', [
    { name: 'service_tokens', sequences: [] },
    { name: 'outbox', sequences: ['outbox_id_seq'] },
    { name: 'unlisted', sequences: ['unlisted_id_seq'] },
  ]);
  const about = (name: string) => plan.statements.filter((s) => s.includes(`"${name}"`));

  it('takes everything from everyone but the owner before it grants what the list says', () => {
    expect(about('service_tokens')).toEqual([
      'REVOKE ALL ON TABLE "service_tokens" FROM PUBLIC, "ranking_rating", "ranking_maintenance", "ranking_leaderboard", "ranking_ops", "ranking_intake"',
      'GRANT SELECT, UPDATE ("last_used_at") ON TABLE "service_tokens" TO "ranking_leaderboard"',
      'GRANT SELECT, INSERT, UPDATE ("revoked_at") ON TABLE "service_tokens" TO "ranking_ops"',
    ]);
  });

  it("lets the roles that insert into a table draw its serial column's ids, and no one else", () => {
    expect(about('outbox_id_seq')).toEqual([
      'REVOKE ALL ON SEQUENCE "outbox_id_seq" FROM PUBLIC, "ranking_rating", "ranking_maintenance", "ranking_leaderboard", "ranking_ops", "ranking_intake"',
      'GRANT USAGE ON SEQUENCE "outbox_id_seq" TO "ranking_rating"',
    ]);
  });

  it('leaves a table without a line to the owner, and skips a listed table that is not there', () => {
    expect(about('unlisted').filter((s) => s.startsWith('GRANT'))).toEqual([]);
    expect(plan.ungoverned).toEqual(['unlisted']);
    expect(plan.skipped).toContain('producers');
    expect(plan.skipped).not.toContain('outbox');
  });

  it('gives PUBLIC nothing on the database and the schema, and the owner no default grants to anyone', () => {
    expect(plan.statements.slice(0, 4)).toEqual([
      'REVOKE ALL ON DATABASE "ranking" FROM PUBLIC',
      'GRANT CONNECT ON DATABASE "ranking" TO "ranking_rating", "ranking_maintenance", "ranking_leaderboard", "ranking_ops", "ranking_intake"',
      'REVOKE ALL ON SCHEMA public FROM PUBLIC',
      'GRANT USAGE ON SCHEMA public TO "ranking_rating", "ranking_maintenance", "ranking_leaderboard", "ranking_ops", "ranking_intake"',
    ]);
    expect(plan.statements.filter((s) => s.startsWith('ALTER DEFAULT PRIVILEGES'))).toHaveLength(4);
    expect(
      plan.statements.filter((s) => s.startsWith('ALTER DEFAULT') && s.includes('GRANT')),
    ).toEqual([]);
  });
});

describe('scramSha256Verifier', () => {
  it('makes the verifier PostgreSQL stores (a vector made with Python hashlib)', () => {
    const salt = Buffer.from([...Array(16).keys()]);
    expect(scramSha256Verifier('correct horse battery staple', salt, 4096)).toBe(
      'SCRAM-SHA-256$4096:AAECAwQFBgcICQoLDA0ODw==$ONYbSJBXtKl6bP6PVqw8pm9e7EiacprLnoUQPFS80Hw=:IPOtHuGJ2HifEQg74W2XXqqCrCyQG55GbPRHa6g6n9w=',
    );
  });

  it('salts each verifier afresh', () => {
    expect(scramSha256Verifier('same password')).not.toBe(scramSha256Verifier('same password'));
  });
});
