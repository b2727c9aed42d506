#!/usr/bin/env bash
# Sourced by deploy/run.sh: the PostgreSQL login roles' passwords (ADR 40), as kafka.sh and
# principal.sh keep the Kafka principals' ones.
#   ensure_database_credentials     # .postgres/credentials.json: one random password per login
#                                   # role, written once (mode 600, git-ignored); a role added
#                                   # since gets one, the others keep theirs
#   with_database_passwords CMD...  # CMD with every DATABASE_<ROLE>_PASSWORD (for `ranking setup`,
#                                   # which gives the roles these passwords)
#   with_database_role ROLE CMD...  # CMD with DATABASE_URL naming ROLE (rating, maintenance,
#                                   # leaderboard, ops, intake) and its password
# The passwords reach the command through its environment, never an argument list `ps` shows.
# The base URL is DATABASE_URL (default: the local server's `ranking` database); only its user
# and password change. Unlike principal.sh these do not exec (they may call each other): run
# them in a background job or a subshell.
DATABASE_ROLES_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATABASE_CREDENTIALS="${DATABASE_CREDENTIALS_FILE:-${DATABASE_ROLES_ROOT}/.postgres/credentials.json}"
# The login roles of libs/persistence/src/database-roles.ts (LOGIN_ROLES).
DATABASE_LOGIN_ROLES=(rating maintenance leaderboard ops intake)

ensure_database_credentials() {
  mkdir -p "$(dirname "${DATABASE_CREDENTIALS}")"
  (
    umask 077
    node -e '
      const fs = require("fs");
      const crypto = require("crypto");
      const [file, ...roles] = process.argv.slice(1);
      const known = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { roles: {} };
      const missing = roles.filter((r) => !known.roles[r]);
      if (missing.length === 0) process.exit(0);
      for (const r of missing) known.roles[r] = crypto.randomBytes(24).toString("hex");
      fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(known, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(`${file}.tmp`, file);
      console.log(`[postgres] generated passwords for ${missing.join(", ")} in ${file}`);
    ' "${DATABASE_CREDENTIALS}" "${DATABASE_LOGIN_ROLES[@]}"
  )
}

# Prints NAME=VALUE lines to export: the passwords, or with a role the URL naming it.
database_credential_lines() {
  node -e '
    const [file, base, role] = process.argv.slice(1);
    const c = JSON.parse(require("fs").readFileSync(file, "utf8")).roles;
    if (role === undefined) {
      for (const [r, p] of Object.entries(c)) console.log(`DATABASE_${r.toUpperCase()}_PASSWORD=${p}`);
    } else {
      if (!c[role]) { console.error(`no password for ${role} in ${file}`); process.exit(1); }
      const url = new URL(base);
      url.username = `ranking_${role}`;
      url.password = encodeURIComponent(c[role]);
      console.log(`DATABASE_URL=${url}`);
    }
  ' "${DATABASE_CREDENTIALS}" "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ranking}" "$@"
}

with_database_passwords() {
  local lines line
  lines="$(database_credential_lines)" || return 1
  while read -r line; do export "${line?}"; done <<<"${lines}"
  "$@"
}

with_database_role() {
  local role="$1" lines
  shift
  lines="$(database_credential_lines "${role}")" || return 1
  export "${lines?}"
  "$@"
}
