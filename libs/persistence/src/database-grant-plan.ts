import {
  LOGIN_ROLES,
  type LoginRole,
  OWNER_ROLE,
  TABLE_GRANTS,
  type TablePrivilege,
} from './database-roles.js';

/** A table of the schema as the catalog lists it, with the sequences its serial columns own. */
export interface SchemaTable {
  readonly name: string;
  readonly sequences: readonly string[];
}

/** The statements that make a database's privileges exactly TABLE_GRANTS, and what they left out. */
export interface GrantPlan {
  readonly statements: readonly string[];
  /** Tables TABLE_GRANTS names that the database does not hold (yet). */
  readonly skipped: readonly string[];
  /** Tables of the database TABLE_GRANTS does not name: the owner's alone. */
  readonly ungoverned: readonly string[];
}

/** An SQL identifier, quoted. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const loginRoles = Object.keys(LOGIN_ROLES) as LoginRole[];
const loginNames = loginRoles.map((r) => quoteIdent(LOGIN_ROLES[r].name));
/** Whom a REVOKE takes everything from: everyone but the owner. */
const EVERYONE = ['PUBLIC', ...loginNames].join(', ');

/** `UPDATE (a, b)` with its columns quoted; the plain privileges as they are. */
function privilegeSql(privilege: TablePrivilege): string {
  const columns = /^UPDATE \((.+)\)$/.exec(privilege)?.[1];
  if (columns === undefined) return privilege;
  return `UPDATE (${columns
    .split(',')
    .map((c) => quoteIdent(c.trim()))
    .join(', ')})`;
}

/**
 * The grants of a database with these tables: first everything is taken from everyone but the
 * owner, then each role gets what TABLE_GRANTS lists (so a privilege dropped from the list is
 * dropped from the database), in one transaction of the caller's. Login roles get CONNECT and
 * the schema's USAGE; PUBLIC keeps nothing (not even CREATE on the schema); what the owner
 * creates later grants nothing until the next `ranking setup` says so.
 */
export function grantPlan(database: string, tables: readonly SchemaTable[]): GrantPlan {
  const statements = [
    `REVOKE ALL ON DATABASE ${quoteIdent(database)} FROM PUBLIC`,
    `GRANT CONNECT ON DATABASE ${quoteIdent(database)} TO ${loginNames.join(', ')}`,
    `REVOKE ALL ON SCHEMA public FROM PUBLIC`,
    `GRANT USAGE ON SCHEMA public TO ${loginNames.join(', ')}`,
    ...['TABLES', 'SEQUENCES', 'FUNCTIONS', 'TYPES'].map(
      (kind) =>
        `ALTER DEFAULT PRIVILEGES FOR ROLE ${quoteIdent(OWNER_ROLE)} REVOKE ALL ON ${kind} FROM ${EVERYONE}`,
    ),
  ];
  const present = new Set(tables.map((t) => t.name));
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) {
    const grants = TABLE_GRANTS[table.name] ?? {};
    statements.push(`REVOKE ALL ON TABLE ${quoteIdent(table.name)} FROM ${EVERYONE}`);
    for (const role of loginRoles) {
      const privileges = grants[role];
      if (privileges && privileges.length > 0)
        statements.push(
          `GRANT ${privileges.map(privilegeSql).join(', ')} ON TABLE ${quoteIdent(table.name)} TO ${quoteIdent(LOGIN_ROLES[role].name)}`,
        );
    }
    for (const sequence of table.sequences) {
      statements.push(`REVOKE ALL ON SEQUENCE ${quoteIdent(sequence)} FROM ${EVERYONE}`);
      for (const role of loginRoles)
        if (grants[role]?.includes('INSERT'))
          statements.push(
            `GRANT USAGE ON SEQUENCE ${quoteIdent(sequence)} TO ${quoteIdent(LOGIN_ROLES[role].name)}`,
          );
    }
  }
  return {
    statements,
    skipped: Object.keys(TABLE_GRANTS).filter((t) => !present.has(t)),
    ungoverned: tables.map((t) => t.name).filter((t) => TABLE_GRANTS[t] === undefined),
  };
}
