#!/usr/bin/env bash
# Faults a real server meets, on both backends, against the built `pipeline`: a PostgreSQL restart in the
# middle of an ingestion, an ingestion and a retrain killed (SIGKILL) and run again, a lock held past the
# timeout, a role at its connection limit, a server that stops answering, a stopped server, a full disk.
# Each check prints `ok` or `FAILED` with what it measured; the run exits 1 if any failed. Not part of
# scripts/test.sh (about 5 minutes here): the suite holds the fast versions of these checks.
#
#   scripts/chaos.sh            every check
#   scripts/chaos.sh NAME…      some of: restart, kill-ingest, kill-retrain, lock, connections, frozen,
#                               stopped, disk-full
#
# It starts its own PostgreSQL cluster (scripts/lib/postgres.sh), which it restarts and freezes, and stops
# it at the end. A full disk is a small tmpfs (SQLite's file, and a PostgreSQL tablespace), which needs
# root; without root, SQLite's disk is a file-size limit (`ulimit -f`) and PostgreSQL's full disk is not
# checked (said so). PIPELINE_BINARY runs another build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/postgres.sh
ensure_packages "${PIPELINE_PACKAGES[@]}" "${PIPELINE_SERVER_PACKAGES[@]}"

if [ -z "${PIPELINE_BINARY:-}" ]; then
    swift build --product pipeline >&2
    PIPELINE_BINARY="$(swift build --show-bin-path)/pipeline"
fi
P=$PIPELINE_BINARY
WORK=$(mktemp -d /tmp/pipeline-chaos.XXXXXX)
# The server's user reaches the tablespace folder inside (disk-full), and lists nothing.
chmod 711 "$WORK"
MOUNTS=()
cleanup() {
    stop_test_postgres
    for mount in "${MOUNTS[@]}"; do umount "$mount" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
NOW=2026-03-15T12:00:00Z
failures=0

# check NAME CONDITION DETAIL: prints the outcome of one check.
check() {
    if eval "$2"; then
        printf '  ok      %s: %s\n' "$1" "$3"
    else
        printf '  FAILED  %s: %s\n' "$1" "$3"
        failures=$((failures + 1))
    fi
}

# backend DB: "sqlite" or "postgresql" for an address.
backend() { if [[ $1 == postgres* ]]; then echo postgresql; else echo sqlite; fi; }

# exited STATUS: "exit N" or "signal N" for a status from $?.
exited() { if [ "$1" -gt 128 ]; then echo "signal $(($1 - 128))"; else echo "exit $1"; fi; }

# psql_admin SQL: runs SQL on the cluster's pipeline_test database as its superuser.
psql_admin() {
    "$PIPELINE_POSTGRES_BIN/psql" -qAt -h "$PIPELINE_TEST_POSTGRES_DIR/socket" -U pipeline -d pipeline_test -c "$1"
}

# url SCHEMA [OPTIONS]: the cluster's URL with tables in SCHEMA, and more server options (`-clock_timeout%3D2s`).
url() { echo "$PIPELINE_TEST_POSTGRES&options=-csearch_path%3D$1${2:+%20$2}"; }

# The cohort every check uses: 300 users, a year each (about 25 MB of JSON Lines).
"$P" generate --users 300 --days 365 --now "$NOW" >"$WORK/cohort.jsonl"
start_test_postgres
echo "PostgreSQL: $PIPELINE_TEST_POSTGRES" >&2

# Restarts the server (fast shutdown: every session ended) while an ingestion writes, three times: the
# ingestion exits 75 with its message, never a signal, and once run again the database holds what one
# ingestion stores.
chaos_restart() {
    echo "restart: PostgreSQL restarted during an ingestion"
    "$P" ingest "$WORK/cohort.jsonl" --db "$(url reference)" --now "$NOW" >/dev/null 2>&1
    local expected
    expected=$(psql_admin "SELECT count(*) FROM reference.daily_logs")
    for trial in 1 2 3; do
        local db status=0
        db=$(url "restart_$trial")
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>"$WORK/restart.err" &
        local ingest=$!
        sleep 2
        _as_postgres_owner "$PIPELINE_POSTGRES_BIN/pg_ctl" -D "$PIPELINE_TEST_POSTGRES_DIR/data" -m fast -w restart \
            >/dev/null 2>&1
        wait "$ingest" || status=$?
        check "restart $trial" "[ $status -eq 75 ] || [ $status -eq 0 ]" \
            "$(exited $status): $(head -c 160 "$WORK/restart.err" | tr '\n' ' ')"
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1 || true
        local rows
        rows=$(psql_admin "SELECT count(*) FROM restart_$trial.daily_logs")
        check "restart $trial, run again" "[ $rows -eq $expected ]" "$rows daily logs, as one ingestion stores ($expected)"
    done
}

# Kills an ingestion (SIGKILL) after a second, on each backend, and runs it again: the database holds what one
# ingestion stores, and is sound.
chaos_kill_ingest() {
    echo "kill-ingest: an ingestion killed and run again"
    "$P" ingest "$WORK/cohort.jsonl" --db "$WORK/reference.sqlite" --now "$NOW" >/dev/null 2>&1
    local expected
    expected=$(sqlite3 "$WORK/reference.sqlite" "SELECT count(*) FROM daily_logs")
    for db in "$WORK/killed.sqlite" "$(url killed_ingest)"; do
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1 &
        local ingest=$! status=0
        sleep 1
        kill -KILL "$ingest"
        wait "$ingest" 2>/dev/null || status=$?
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1
        local rows
        if [[ $db == postgres* ]]; then
            rows=$(psql_admin "SELECT count(*) FROM killed_ingest.daily_logs")
        else
            rows=$(sqlite3 "$db" "SELECT count(*) FROM daily_logs")
            check "kill-ingest sqlite integrity" "[ \"$(sqlite3 "$db" 'PRAGMA integrity_check')\" = ok ]" "integrity_check"
        fi
        check "kill-ingest $(backend "$db")" "[ $rows -eq $expected ]" \
            "killed ($(exited $status)), run again: $rows daily logs ($expected expected)"
    done
}

# Kills a retrain (SIGKILL) while it runs, on each backend: its requests are shown abandoned and stuck once
# their leases expire, and the next retrain runs each user's exactly once.
chaos_kill_retrain() {
    echo "kill-retrain: a retrain killed, its leases expired, retrained by the next launch"
    for db in "$WORK/retrain.sqlite" "$(url killed_retrain)"; do
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1
        "$P" retrain --db "$db" --now "$NOW" --jobs 2 >/dev/null 2>&1 &
        local retrain=$!
        sleep 2
        kill -KILL "$retrain"
        wait "$retrain" 2>/dev/null || true
        # Leases last the 10-minute budget and its grace: 11 minutes later every one has expired.
        local later=2026-03-15T12:11:00Z
        "$P" status --db "$db" --now "$later" >"$WORK/status.txt" 2>&1 || true
        check "kill-retrain $(backend "$db") status" "grep -q 'abandoned' '$WORK/status.txt' && grep -q 'stuck' '$WORK/status.txt'" \
            "status after the leases expired: $(grep -o 'abandoned [0-9]*' "$WORK/status.txt" | head -1), stuck listed"
        local status=0
        "$P" retrain --db "$db" --now "$later" --jobs 2 >/dev/null 2>"$WORK/retrain.err" || status=$?
        local runs twice
        runs=$("$P" history --db "$db" --identifier ml-retrain --json | grep -c '"outcome":"success"' || true)
        twice=$("$P" history --db "$db" --identifier ml-retrain --json | grep '"outcome":"success"' |
            grep -o '"user":"[^"]*"' | sort | uniq -d | wc -l)
        check "kill-retrain $(backend "$db")" "[ $status -eq 0 ] && [ $runs -eq 300 ] && [ $twice -eq 0 ]" \
            "next retrain $(exited $status): $runs users retrained, $twice twice"
    done
}

# Holds a lock on daily_logs (PostgreSQL) or the write lock (SQLite) for 100 s while a launch runs reminders
# that read the logs: the launch gives its requests back and exits 75 within about a lock timeout (15 s),
# charging no attempt.
chaos_lock() {
    echo "lock: a lock held for 100 s while a launch runs"
    for db in "$WORK/locked.sqlite" "$(url locked)"; do
        "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1
        "$P" run --db "$db" --now "$NOW" >/dev/null 2>&1
        local holder
        if [[ $db == postgres* ]]; then
            "$PIPELINE_POSTGRES_BIN/psql" -q -h "$PIPELINE_TEST_POSTGRES_DIR/socket" -U pipeline -d pipeline_test \
                -c "BEGIN; LOCK TABLE locked.daily_logs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(100); COMMIT;" \
                >/dev/null 2>&1 &
            holder=$!
        else
            # The sqlite3 shell holds the write lock until its input says otherwise.
            mkfifo "$WORK/lock.fifo"
            sqlite3 "$db" <"$WORK/lock.fifo" >/dev/null 2>&1 &
            holder=$!
            exec 3>"$WORK/lock.fifo"
            echo "BEGIN IMMEDIATE; INSERT INTO users (id, time_zone, created_at) VALUES ('lock', 'UTC', 0);" >&3
        fi
        sleep 1
        local started=$SECONDS status=0
        "$P" run --db "$db" --now 2026-03-15T20:30:00Z >/dev/null 2>"$WORK/lock.err" || status=$?
        local took=$((SECONDS - started))
        if [[ $db == postgres* ]]; then
            psql_admin "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE query LIKE '%pg_sleep(100)%' AND pid <> pg_backend_pid()" >/dev/null
        else
            echo "ROLLBACK;" >&3
            exec 3>&-
        fi
        wait "$holder" 2>/dev/null || true
        local charged
        charged=$("$P" requests --db "$db" --task engagement-daily --json | grep -c '"attempts":[1-9]' || true)
        check "lock $(backend "$db")" "[ $status -eq 75 ] && [ $took -le 40 ] && [ $charged -eq 0 ]" \
            "$(exited $status) after $took s, $charged requests charged an attempt"
    done
}

# A role that may open one connection: a retrain with four jobs goes on with the one; a role that may
# open none exits 75 without printing the password.
chaos_connections() {
    echo "connections: a role at its connection limit"
    psql_admin "CREATE ROLE chaos_one LOGIN CONNECTION LIMIT 1; CREATE SCHEMA chaos_one AUTHORIZATION chaos_one;
        CREATE ROLE chaos_none LOGIN CONNECTION LIMIT 0"
    local db="postgresql:///pipeline_test?host=$PIPELINE_TEST_POSTGRES_DIR/socket&user=chaos_one&password=chaos-secret&options=-csearch_path%3Dchaos_one"
    "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1
    local status=0
    "$P" retrain --db "$db" --now "$NOW" --jobs 4 >/dev/null 2>"$WORK/connections.err" || status=$?
    local runs
    runs=$("$P" history --db "$db" --identifier ml-retrain --json | grep -c '"outcome":"success"' || true)
    check "connections: limit 1" "[ $status -eq 0 ] && [ $runs -eq 300 ]" "retrain --jobs 4 $(exited $status), $runs users retrained"
    status=0
    "$P" status --db "${db//chaos_one/chaos_none}" >/dev/null 2>"$WORK/none.err" || status=$?
    check "connections: limit 0" "[ $status -eq 75 ] && ! grep -q chaos-secret '$WORK/none.err'" \
        "$(exited $status), password not printed"
}

# Freezes every server process (SIGSTOP) while a retrain runs: with a statement timeout of 5 s the client
# waits 20 s for an answer, then the retrain exits 75.
chaos_frozen() {
    echo "frozen: the server's processes stopped (SIGSTOP) during a retrain"
    local db
    db=$(url frozen "-cstatement_timeout%3D5s")
    "$P" ingest "$WORK/cohort.jsonl" --db "$db" --now "$NOW" >/dev/null 2>&1
    local started=$SECONDS status=0
    "$P" retrain --db "$db" --now "$NOW" --jobs 1 --budget 2m >/dev/null 2>"$WORK/frozen.err" &
    local retrain=$!
    sleep 3
    # This cluster's processes only: its postmaster and the processes it started (other clusters on the
    # machine run as the same user).
    local postmaster pids
    postmaster=$(head -1 "$PIPELINE_TEST_POSTGRES_DIR/data/postmaster.pid")
    pids="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
    # shellcheck disable=SC2086
    kill -STOP $pids
    wait "$retrain" || status=$?
    # shellcheck disable=SC2086
    kill -CONT $pids 2>/dev/null || true
    local took=$((SECONDS - started))
    check "frozen" "[ $status -eq 75 ] && [ $took -le 150 ]" \
        "$(exited $status) after $took s (budget 120 s + 20 s): $(grep -o 'did not answer within [0-9]* s' "$WORK/frozen.err" | head -1)"
}

# Every reading and running command against a stopped server exits 75, and none prints the password.
chaos_stopped() {
    echo "stopped: commands against a stopped server"
    _as_postgres_owner "$PIPELINE_POSTGRES_BIN/pg_ctl" -D "$PIPELINE_TEST_POSTGRES_DIR/data" -m fast -w stop >/dev/null
    local db="${PIPELINE_TEST_POSTGRES}&password=stopped-secret" bad=0 total=0
    for command in "status" "run" "retrain" "export --user u" "model --user u" "history" "requests" "outbox" \
        "dead-letters" "init" "ingest $WORK/cohort.jsonl"; do
        local status=0
        # shellcheck disable=SC2086
        "$P" $command --db "$db" >/dev/null 2>"$WORK/stopped.err" || status=$?
        total=$((total + 1))
        if [ $status -ne 75 ] || grep -q stopped-secret "$WORK/stopped.err"; then bad=$((bad + 1)); fi
    done
    check "stopped" "[ $bad -eq 0 ]" "$((total - bad)) of $total commands exit 75 without the password"
    _start_test_postgres_server "$PIPELINE_TEST_POSTGRES_DIR"
}

# An ingestion onto a disk that fills: SQLite's file on a 3 MB tmpfs, PostgreSQL's tables in a tablespace on
# one. Each exits 74 with its message, never a signal.
chaos_disk_full() {
    echo "disk-full: an ingestion onto a disk that fills"
    local status=0
    if [ "$(id -u)" -eq 0 ]; then
        mkdir -p "$WORK/small"
        mount -t tmpfs -o size=3m tmpfs "$WORK/small" && MOUNTS+=("$WORK/small")
        "$P" ingest "$WORK/cohort.jsonl" --db "$WORK/small/full.sqlite" --now "$NOW" >/dev/null 2>"$WORK/full.err" || status=$?
        check "disk-full sqlite (3 MB tmpfs)" "[ $status -eq 74 ]" "$(exited $status): $(head -c 100 "$WORK/full.err")"

        mkdir -p "$WORK/space"
        mount -t tmpfs -o size=4m tmpfs "$WORK/space" && MOUNTS+=("$WORK/space")
        chown postgres:postgres "$WORK/space"
        psql_admin "CREATE TABLESPACE chaos_small LOCATION '$WORK/space'"
        psql_admin "CREATE ROLE chaos_full LOGIN; GRANT CREATE ON TABLESPACE chaos_small TO chaos_full;
            ALTER ROLE chaos_full SET default_tablespace = chaos_small; CREATE SCHEMA chaos_full AUTHORIZATION chaos_full"
        status=0
        "$P" ingest "$WORK/cohort.jsonl" --now "$NOW" \
            --db "postgresql:///pipeline_test?host=$PIPELINE_TEST_POSTGRES_DIR/socket&user=chaos_full&options=-csearch_path%3Dchaos_full" \
            >/dev/null 2>"$WORK/full.err" || status=$?
        check "disk-full postgresql (4 MB tablespace)" "[ $status -eq 74 ]" "$(exited $status): $(head -c 100 "$WORK/full.err")"
    else
        (ulimit -f 3072 && trap '' XFSZ && exec "$P" ingest "$WORK/cohort.jsonl" --db "$WORK/full.sqlite" --now "$NOW") \
            >/dev/null 2>"$WORK/full.err" || status=$?
        check "disk-full sqlite (ulimit -f 3 MB)" "[ $status -eq 74 ]" "$(exited $status): $(head -c 100 "$WORK/full.err")"
        echo "  skipped disk-full postgresql: a tablespace on a small tmpfs needs root"
    fi
}

checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(restart kill-ingest kill-retrain lock connections frozen stopped disk-full)
for name in "${checks[@]}"; do
    case "$name" in
    restart | kill-ingest | kill-retrain | lock | connections | frozen | stopped | disk-full) "chaos_${name//-/_}" ;;
    *)
        echo "error: unknown check '$name'" >&2
        exit 64
        ;;
    esac
done
if [ $failures -gt 0 ]; then
    echo "$failures checks FAILED"
    exit 1
fi
echo "every check passed"
