import type pg from 'pg';
import { grantPlan, quoteIdent, type SchemaTable } from './database-grant-plan.js';
import { LOGIN_ROLES, type LoginRole, OWNER_ROLE } from './database-roles.js';
import { scramSha256Verifier } from './scram-verifier.js';

/** What `ensureDatabaseRoles` did. */
export interface RolesReport {
  readonly created: readonly string[];
  /** Roles whose password it set (a changed one: the same password again changes nothing). */
  readonly passwordsSet: readonly string[];
  /** Login roles left without a password: they log in only where pg_hba.conf trusts them. */
  readonly withoutPassword: readonly string[];
}

/** What `applyDatabaseGrants` did. */
export interface GrantsReport {
  readonly statements: number;
  readonly skipped: readonly string[];
  readonly ungoverned: readonly string[];
}

const ATTRIBUTES = ['SUPERUSER', 'CREATEDB', 'CREATEROLE', 'REPLICATION', 'BYPASSRLS'] as const;

interface RoleRow {
  rolname: string;
  rolcanlogin: boolean;
  rolsuper: boolean;
  rolcreatedb: boolean;
  rolcreaterole: boolean;
  rolreplication: boolean;
  rolbypassrls: boolean;
  rolpassword: string | null;
}

/** Whether a role's attributes are already what we make them: LOGIN or not, and none of the rest. */
const attributesHold = (row: RoleRow, login: boolean) =>
  row.rolcanlogin === login &&
  !row.rolsuper &&
  !row.rolcreatedb &&
  !row.rolcreaterole &&
  !row.rolreplication &&
  !row.rolbypassrls;

const attributesSql = (login: boolean) =>
  [login ? 'LOGIN' : 'NOLOGIN', ...ATTRIBUTES.map((a) => `NO${a}`)].join(' ');

/** Whether a stored SCRAM verifier is that of `password` (made again with its salt and count). */
function verifies(stored: string | null, password: string): boolean {
  const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored ?? '');
  if (!m) return false;
  return scramSha256Verifier(password, Buffer.from(m[2]!, 'base64'), Number(m[1])) === stored;
}

/** The one-line refusal of a connection that may not set the roles up. */
async function requireSuperuser(client: pg.Client): Promise<void> {
  const [row] = (
    await client.query<{ user: string; super: boolean }>(
      'SELECT current_user AS user, rolsuper AS super FROM pg_roles WHERE rolname = current_user',
    )
  ).rows;
  if (!row?.super)
    throw new Error(
      `ranking setup needs a PostgreSQL superuser in DATABASE_URL (it creates the roles and hands the tables to ${OWNER_ROLE}); ${row?.user ?? 'its user'} is not one`,
    );
}

/**
 * Creates the owner (NOLOGIN) and the login roles where missing and keeps their attributes
 * (no superuser, no CREATEDB/CREATEROLE/REPLICATION/BYPASSRLS); sets a login role's password
 * where one is given, as a SCRAM verifier made here. Roles are the cluster's, shared by its
 * databases: setups run one at a time (an advisory lock in the server's `postgres` database),
 * and a role another process created meanwhile counts as there.
 */
export async function ensureDatabaseRoles(
  client: pg.Client,
  passwords: Readonly<Partial<Record<LoginRole, string>>>,
): Promise<RolesReport> {
  await requireSuperuser(client);
  await client.query("SELECT pg_advisory_lock(hashtext('ranking-setup:roles'))");
  try {
    const wanted = [
      { name: OWNER_ROLE, login: false, password: undefined },
      ...(Object.keys(LOGIN_ROLES) as LoginRole[]).map((role) => ({
        name: LOGIN_ROLES[role].name,
        login: true,
        password: passwords[role],
      })),
    ];
    const created: string[] = [];
    const passwordsSet: string[] = [];
    const withoutPassword: string[] = [];
    for (const role of wanted) {
      const found = await roleRow(client, role.name);
      const ident = quoteIdent(role.name);
      if (!found) {
        try {
          await client.query(`CREATE ROLE ${ident} ${attributesSql(role.login)}`);
          created.push(role.name);
        } catch (error) {
          // Made meanwhile by something that does not take the lock (an operator, say).
          const code = (error as { code?: string }).code;
          if (code !== '42710' && code !== '23505') throw error;
        }
      } else if (!attributesHold(found, role.login)) {
        await client.query(`ALTER ROLE ${ident} ${attributesSql(role.login)}`);
      }
      if (role.password !== undefined) {
        const current = (await roleRow(client, role.name))?.rolpassword ?? null;
        if (!verifies(current, role.password)) {
          const verifier = scramSha256Verifier(role.password);
          await client.query(`ALTER ROLE ${ident} PASSWORD ${client.escapeLiteral(verifier)}`);
          passwordsSet.push(role.name);
        }
      } else if (role.login && ((await roleRow(client, role.name))?.rolpassword ?? null) === null) {
        withoutPassword.push(role.name);
      }
    }
    return { created, passwordsSet, withoutPassword };
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('ranking-setup:roles'))");
  }
}

async function roleRow(client: pg.Client, name: string): Promise<RoleRow | undefined> {
  const { rows } = await client.query<RoleRow>(
    `SELECT rolname, rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolreplication,
            rolbypassrls, rolpassword
     FROM pg_authid WHERE rolname = $1`,
    [name],
  );
  return rows[0];
}

const ALTER_KIND: Readonly<Record<string, string>> = {
  r: 'TABLE',
  p: 'TABLE',
  v: 'VIEW',
  m: 'MATERIALIZED VIEW',
  f: 'FOREIGN TABLE',
  S: 'SEQUENCE',
};

/**
 * Gives the owner role the schema `public` and every table, view and free-standing sequence in
 * it that another role owns (a database migrated before the owner existed); a serial column's
 * sequence follows its table. Returns the relations it handed over.
 */
export async function handOverToOwner(client: pg.Client): Promise<string[]> {
  await client.query(`ALTER SCHEMA public OWNER TO ${quoteIdent(OWNER_ROLE)}`);
  const { rows } = await client.query<{ name: string; kind: string }>(
    `SELECT c.relname::text AS name, c.relkind::text AS kind
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
       AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = $1)
       AND NOT (c.relkind = 'S' AND EXISTS (
         SELECT 1 FROM pg_depend d
         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
           AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
     ORDER BY c.relname`,
    [OWNER_ROLE],
  );
  for (const r of rows)
    await client.query(
      `ALTER ${ALTER_KIND[r.kind]} ${quoteIdent(r.name)} OWNER TO ${quoteIdent(OWNER_ROLE)}`,
    );
  return rows.map((r) => r.name);
}

/** The schema's tables (and views), each with the sequences its serial or identity columns own. */
export async function schemaTables(client: pg.Client): Promise<SchemaTable[]> {
  const { rows } = await client.query<{ name: string; sequences: string[] }>(
    `SELECT c.relname::text AS name,
            coalesce(array_agg(s.relname::text ORDER BY s.relname)
                       FILTER (WHERE s.relname IS NOT NULL), '{}'::text[]) AS sequences
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.oid
       AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
     LEFT JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
     GROUP BY c.relname
     ORDER BY c.relname`,
  );
  return rows;
}

/**
 * Makes the database's privileges exactly those of TABLE_GRANTS (database-grant-plan.ts), in
 * one transaction.
 */
export async function applyDatabaseGrants(
  client: pg.Client,
  database: string,
): Promise<GrantsReport> {
  const plan = grantPlan(database, await schemaTables(client));
  await client.query('BEGIN');
  try {
    for (const statement of plan.statements) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return { statements: plan.statements.length, skipped: plan.skipped, ungoverned: plan.ungoverned };
}
