#!/bin/bash
# The services' Postgres roles and schemas, made with the admin's credentials, which no service is given.
#
# Each service gets a login role of its own that owns its schema and nothing else: no superuser, no CREATEDB, no
# CREATEROLE, CONNECT on this database only, no rights on the other services' schemas or on `public`. A worker that
# parses hostile media (frame-extraction, ocr-tesseract) can then read and write its own tables and nobody else's.
#
# Safe to run again, and run at every start (compose's one-shot `db-setup`, the Kubernetes Job `db-setup`): it makes
# what is missing and sets each role's password to the one it is given, so changing a password is changing the
# setting and running this again. Schemas an earlier release made as the admin pass to their role, with every
# table, sequence, view, function and type in them.
#
# Environment:
#   PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE   the admin's connection (libpq's own variables), to the
#                                                    database the services use
#   DATABASE_URL_IDENTITY, DATABASE_URL_UPLOAD, DATABASE_URL_FRAME_EXTRACTION, DATABASE_URL_OCR_TESSERACT,
#   DATABASE_URL_OCR_CLOUD, DATABASE_URL_BILLING, DATABASE_URL_RESULTS
#                                                    each service's own DATABASE_URL: its role is the URL's user,
#                                                    its password the URL's password
# A managed Postgres: run it once, and after every password change, from any machine that reaches the database,
# with a role that has CREATEROLE (and owns the database, or may grant on it): see docs/operations.md.
set -euo pipefail

# Schema of each service (the service's name with - as _, packages/service-kit's schemaName).
SCHEMAS=(identity upload frame_extraction ocr_tesseract ocr_cloud billing results)
# packages/service-kit/src/db/index.ts MIGRATION_LOCK_CLASS: a service migrating its schema and this script take turns.
MIGRATION_LOCK_CLASS=1296648018

log() { echo "db-setup: $*"; }
die() {
  echo "db-setup: $*" >&2
  exit 1
}

# %XX escapes decoded, as node-postgres decodes a URL's user and password.
urldecode() {
  local s=$1 out='' c
  while [[ $s =~ ^([^%]*)%([0-9A-Fa-f]{2})(.*)$ ]]; do
    printf -v c '%b' "\\x${BASH_REMATCH[2]}"
    out+="${BASH_REMATCH[1]}$c"
    s=${BASH_REMATCH[3]}
  done
  printf '%s' "$out$s"
}

: "${PGUSER:?set PGUSER: the admin role}"
: "${PGDATABASE:?set PGDATABASE: the database the services use}"
export PGCONNECT_TIMEOUT="${PGCONNECT_TIMEOUT:-10}"
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# Postgres may still be starting (a Kubernetes Job starts beside it): up to two minutes.
for attempt in $(seq 1 60); do
  if pg_isready -q; then break; fi
  [ "$attempt" = 60 ] && die "Postgres at ${PGHOST:-localhost}:${PGPORT:-5432} is not accepting connections"
  sleep 2
done

# Nobody but the roles granted below may connect to the database, make temporary tables in it, or use `public`.
psql_admin --single-transaction <<'SQL'
select format('revoke all on database %I from public', current_database()) \gexec
revoke all on schema public from public;
SQL

declare -A seen=()
for schema in "${SCHEMAS[@]}"; do
  var="DATABASE_URL_${schema^^}"
  url="${!var:-}"
  [ -n "$url" ] || die "set $var: the DATABASE_URL of the service that owns schema $schema"
  [[ $url =~ ^postgres(ql)?://([^/?#]*)@[^@/?#]+ ]] || die "$var is not a postgres://user:password@host/... URL"
  userinfo=${BASH_REMATCH[2]}
  [[ $userinfo == *:* ]] || die "$var has no password"
  role=$(urldecode "${userinfo%%:*}")
  password=$(urldecode "${userinfo#*:}")
  [[ $role =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || die "$var: the role \"$role\" must be lower-case letters, digits and _"
  [ "$role" != "$PGUSER" ] || die "$var uses the admin role $PGUSER: give the service a role of its own"
  [ -z "${seen[$role]:-}" ] || die "$var: the role $role is also ${seen[$role]}'s; each service needs its own"
  [ ${#password} -ge 16 ] || die "$var: the password must have at least 16 characters"
  seen[$role]=$schema

  # The values reach the server as settings of this transaction, read by the block below: no quoting by hand.
  psql_admin --single-transaction -v role="$role" -v schema="$schema" -v password="$password" -v lock="$MIGRATION_LOCK_CLASS" <<'SQL'
select set_config('frametext.role', :'role', true), set_config('frametext.schema', :'schema', true),
       set_config('frametext.password', :'password', true), set_config('frametext.lock', :'lock', true) \g /dev/null
do $$
declare
  r text := current_setting('frametext.role');
  s text := current_setting('frametext.schema');
  super boolean := (select rolsuper from pg_roles where rolname = current_user);
  o record;
begin
  -- A replica of the service migrating this schema meanwhile finishes first.
  perform pg_advisory_xact_lock(current_setting('frametext.lock')::int, hashtext(s));
  if not exists (select from pg_roles where rolname = r) then
    execute format('create role %I login nosuperuser nocreatedb nocreaterole noreplication nobypassrls', r);
    raise notice 'created role %', r;
  end if;
  execute format('alter role %I with login password %L', r, current_setting('frametext.password'));
  if super then
    execute format('alter role %I nosuperuser nocreatedb nocreaterole noreplication nobypassrls', r);
  else
    -- A managed Postgres' admin is no superuser: to give the role its schema it must be able to act as the role.
    if current_setting('server_version_num')::int >= 160000 then
      if not pg_has_role(current_user, r, 'SET') then execute format('grant %I to %I with set true', r, current_user); end if;
    elsif not pg_has_role(current_user, r, 'MEMBER') then
      execute format('grant %I to %I', r, current_user);
    end if;
  end if;
  if exists (select from pg_roles where rolname = r and (rolsuper or rolcreatedb or rolcreaterole or rolreplication or rolbypassrls)) then
    raise exception 'role % has superuser, createdb, createrole, replication or bypassrls: remove them as a superuser', r;
  end if;
  if exists (select from pg_auth_members m join pg_roles g on g.oid = m.roleid where m.member = r::regrole) then
    raise exception 'role % is a member of other roles: revoke them', r;
  end if;

  if not exists (select from pg_namespace where nspname = s) then
    execute format('create schema %I authorization %I', s, r);
    raise notice 'created schema % owned by %', s, r;
  elsif (select nspowner from pg_namespace where nspname = s) <> r::regrole then
    execute format('alter schema %I owner to %I', s, r);
    raise notice 'schema % now owned by %', s, r;
  end if;
  -- What an earlier release made there as the admin. Indexes and the sequences of serial columns follow their table.
  for o in
    select format('alter %s %I.%I owner to %I',
                  case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
                                 when 'f' then 'foreign table' else 'table' end, s, c.relname, r) as stmt
    from pg_class c
    where c.relnamespace = s::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and c.relowner <> r::regrole
      and not (c.relkind = 'S' and exists (select from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i')))
    order by c.relkind = 'S'
  loop
    execute o.stmt;
  end loop;
  for o in
    select format('alter %s %s owner to %I', case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end, p.oid::regprocedure, r) as stmt
    from pg_proc p where p.pronamespace = s::regnamespace and p.proowner <> r::regrole
  loop
    execute o.stmt;
  end loop;
  for o in
    select format('alter type %s owner to %I', t.oid::regtype, r) as stmt
    from pg_type t left join pg_class c on c.oid = t.typrelid
    where t.typnamespace = s::regnamespace and t.typowner <> r::regrole
      and (t.typtype in ('e', 'd', 'r', 'm') or (t.typtype = 'c' and c.relkind = 'c'))
  loop
    execute o.stmt;
  end loop;

  -- The schema is the role's alone; the role may connect here and nowhere it is not let in.
  execute format('revoke all on schema %I from public', s);
  execute format('grant connect on database %I to %I', current_database(), r);
end
$$;
SQL
  log "role $role owns schema $schema"
done
log "done: ${#SCHEMAS[@]} roles, each with its own schema only"
