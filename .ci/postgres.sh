# Sourced by .ci/run: starts a throw-away PostgreSQL cluster on loopback and
# exports EXPORTTASK_TEST_POSTGRES_DSN for the test suites. The cluster is
# stopped and removed when the sourcing shell exits.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "postgres.sh: no PostgreSQL server found under /usr/lib/postgresql" >&2
  return 1
fi
pg_port=${PG_PORT:-55432}
pg_dir=$(mktemp -d /tmp/exporttask-pg.XXXXXX)
chmod 755 "$pg_dir"
pg_run=""
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$pg_dir"
  pg_run="runuser -u postgres --"
fi
$pg_run "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust --no-sync >/dev/null
$pg_run "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c fsync=off -c max_connections=200" start >/dev/null
stop_postgres() { $pg_run "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap stop_postgres EXIT
"$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc 'CREATE DATABASE exporttask_test' >/dev/null
export EXPORTTASK_TEST_POSTGRES_DSN="postgres://postgres@127.0.0.1:$pg_port/exporttask_test?sslmode=disable"
echo "postgres: $EXPORTTASK_TEST_POSTGRES_DSN"
