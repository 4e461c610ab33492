#!/bin/bash
# Starts PostgreSQL for Grove: a cluster made at the first start (database and user "grove", the
# password from POSTGRES_PASSWORD_FILE), then the server in the foreground on every address with
# password authentication.
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
data=/var/lib/grove-postgres/data
password_file="${POSTGRES_PASSWORD_FILE:-/run/secrets/accounting-password}"
if [ ! -s "$data/PG_VERSION" ]; then
  [ -r "$password_file" ] || { echo "grove-postgres: no password in $password_file" >&2; exit 2; }
  # the socket inside the container trusts its own user; every network client needs the password
  "$bin/initdb" -D "$data" -U grove --auth-local=trust --auth-host=scram-sha-256 --pwfile="$password_file" >/dev/null
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$data/pg_hba.conf"
  echo "host all all ::/0 scram-sha-256" >> "$data/pg_hba.conf"
  "$bin/pg_ctl" -D "$data" -w -o "-c listen_addresses=''" start >/dev/null
  "$bin/createdb" -U grove -h /run/postgresql grove
  "$bin/pg_ctl" -D "$data" -w stop >/dev/null
fi
exec "$bin/postgres" -D "$data" -c listen_addresses='*'
