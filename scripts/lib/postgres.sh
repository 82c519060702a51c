# A throwaway PostgreSQL cluster for the tests and benchmarks. Sourced by test.sh and bench.sh.
#
# Usage: start_test_postgres  — initdb into a new temporary folder, start the server listening only
#                               on a Unix socket inside it, create the database `pipeline_test`, and
#                               export PIPELINE_TEST_POSTGRES (its URL) and PIPELINE_TEST_POSTGRES_DIR.
#        stop_test_postgres   — stop the server and remove the folder (safe to call twice).
# The server refuses to run as root, so as root it runs as the unprivileged `postgres` user that
# Debian's package creates. Durability settings are off: the cluster lives for one run only.

PIPELINE_POSTGRES_BIN=${PIPELINE_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}

_as_postgres_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start_test_postgres() {
    local folder
    folder=$(mktemp -d /tmp/pipeline-pg.XXXXXX)
    export PIPELINE_TEST_POSTGRES_DIR="$folder"
    mkdir -p "$folder/socket"
    if [ "$(id -u)" -eq 0 ]; then
        chown -R postgres:postgres "$folder"
    fi
    if ! _as_postgres_owner "$PIPELINE_POSTGRES_BIN/initdb" -D "$folder/data" -U pipeline --auth=trust \
        -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1; then
        echo "error: initdb failed:" >&2
        cat "$folder/initdb.log" >&2
        return 1
    fi
    # One role whose password is checked (every other local connection is trusted), so that the tests can see
    # what a wrong or missing password does: pg_hba.conf takes the first line that matches.
    _as_postgres_owner sed -i '0,/^local/s//local   all             pipeline_password                       scram-sha-256\n&/' \
        "$folder/data/pg_hba.conf"
    if ! _start_test_postgres_server "$folder"; then
        echo "error: the test PostgreSQL server did not start:" >&2
        cat "$folder/pg_ctl.log" "$folder/server.log" >&2 2>/dev/null
        return 1
    fi
    "$PIPELINE_POSTGRES_BIN/psql" -q -h "$folder/socket" -U pipeline -d postgres \
        -c "CREATE DATABASE pipeline_test" \
        -c "CREATE ROLE pipeline_password LOGIN PASSWORD 'right-password'" >/dev/null
    export PIPELINE_TEST_POSTGRES="postgresql:///pipeline_test?host=$folder/socket&user=pipeline"
    # The role above, for the tests of wrong and missing passwords: ROLE:PASSWORD.
    export PIPELINE_TEST_POSTGRES_PASSWORD_ROLE="pipeline_password:right-password"
}

# _start_test_postgres_server FOLDER: starts the cluster in FOLDER with the test settings (again, after a stop).
_start_test_postgres_server() {
    _as_postgres_owner "$PIPELINE_POSTGRES_BIN/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$1/socket' -c max_connections=600 \
            -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_locks_per_transaction=256" \
        start >"$1/pg_ctl.log" 2>&1
}

stop_test_postgres() {
    local folder=${PIPELINE_TEST_POSTGRES_DIR:-}
    [ -n "$folder" ] && [ -d "$folder" ] || return 0
    _as_postgres_owner "$PIPELINE_POSTGRES_BIN/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    unset PIPELINE_TEST_POSTGRES_DIR PIPELINE_TEST_POSTGRES_PASSWORD_ROLE
}
