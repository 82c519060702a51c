# `scripts/bench.sh night`: a night at scale. BENCH_NIGHT_USERS (200,000) users x BENCH_NIGHT_DAYS (30) days
# generated, loaded and retrained by cron's command (`pipeline retrain`, each process one job) on PostgreSQL with 1
# and 2 worker processes, beside SQLite with the same, on a throwaway cluster (scripts/lib/postgres.sh). Sourced by
# bench.sh, which defines PIPELINE, WORK, NOW, seconds, ratio and rate; uses psql_run and postgres_url of
# scripts/bench/postgres.sh.
#
# Prints, per phase and backend: wall time, users/s, each worker process's peak resident memory; the database's
# bytes per user-day after the night; a check that every user was retrained exactly once; and the projection to
# 10 million users: the hours one worker would take, and the worker cores (one job each, beside the database
# server's) that finish the night in one hour at the two-worker rate. One run: it is long (about a quarter of an
# hour on 2 cores) and takes a few GB of disk.

# night_retrain LABEL WORKERS DATABASE: runs WORKERS `pipeline retrain --jobs 1` processes at once on DATABASE,
# prints their wall time, and keeps each one's peak resident memory (KB) in $WORK/night-LABEL-N.
night_retrain() {
    local label="$1" workers="$2" database="$3" started ended
    started=$(date +%s.%N)
    local pids=() worker
    for ((worker = 1; worker <= workers; worker++)); do
        /usr/bin/time -f "%M" -o "$WORK/night-$label-$worker" \
            "$PIPELINE" retrain --jobs 1 --db "$database" --now "$NOW" >/dev/null 2>"$WORK/night-$label-$worker.err" &
        pids+=("$!")
    done
    local failed=0
    for worker in "${pids[@]}"; do wait "$worker" || failed=1; done
    ended=$(date +%s.%N)
    if [ "$failed" -ne 0 ]; then
        cat "$WORK"/night-"$label"-*.err >&2
        return 1
    fi
    awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }'
}

# night_peaks LABEL WORKERS: each worker's peak memory in MB, "a / b".
night_peaks() {
    local worker line=""
    for ((worker = 1; worker <= $2; worker++)); do
        line+="${line:+ / }$(($(cat "$WORK/night-$1-$worker") / 1024))"
    done
    echo "$line"
}

# night_line LABEL TITLE WORKERS SECONDS USERS: one retrain line, with the peaks night_retrain LABEL kept.
night_line() {
    printf "  %-28s %7.1f s  %7s users/s   peak memory per worker %s MB\n" \
        "$2, $3 worker$([ "$3" -gt 1 ] && echo s)" "$4" "$(rate "$5" "$4")" "$(night_peaks "$1" "$3")"
}

bench_night() {
    local users="${BENCH_NIGHT_USERS:-200000}" days="${BENCH_NIGHT_DAYS:-30}" target=10000000
    trap 'stop_test_postgres; rm -rf "$WORK"' EXIT
    start_test_postgres
    echo "== night: $users users x $days days, generated, loaded and retrained (pipeline retrain, one job per process)"

    local generate
    generate=$(seconds bash -c "'$PIPELINE' generate --users $users --days $days --now $NOW >'$WORK/night.jsonl'")
    printf "  %-28s %7.1f s  (%s records)\n" generate "$generate" "$(wc -l <"$WORK/night.jsonl")"

    psql_run postgres -c "CREATE DATABASE night_source"
    local load_pg load_sqlite
    load_pg=$(seconds "$PIPELINE" ingest "$WORK/night.jsonl" --db "$(postgres_url night_source)" --now "$NOW")
    load_sqlite=$(seconds "$PIPELINE" ingest "$WORK/night.jsonl" --db "$WORK/night-source.sqlite" --now "$NOW")
    rm -f "$WORK/night.jsonl"
    local user_days
    user_days=$(psql_run night_source -Atc "SELECT count(*) FROM daily_logs")
    printf "  %-28s %7.1f s  %7s user-days/s\n" "load, PostgreSQL" "$load_pg" "$(rate "$user_days" "$load_pg")"
    printf "  %-28s %7.1f s  %7s user-days/s\n" "load, SQLite" "$load_sqlite" "$(rate "$user_days" "$load_sqlite")"

    psql_run postgres -c "VACUUM ANALYZE" >/dev/null
    psql_run night_source -c "VACUUM ANALYZE"
    psql_run postgres -c "CREATE DATABASE night_one TEMPLATE night_source" \
        -c "CREATE DATABASE night_two TEMPLATE night_source"
    cp "$WORK/night-source.sqlite" "$WORK/night-one.sqlite"
    mv "$WORK/night-source.sqlite" "$WORK/night-two.sqlite"

    local pg_one pg_two sq_one sq_two
    pg_one=$(night_retrain pg-one 1 "$(postgres_url night_one)")
    night_line pg-one "retrain, PostgreSQL" 1 "$pg_one" "$users"
    pg_two=$(night_retrain pg-two 2 "$(postgres_url night_two)")
    night_line pg-two "retrain, PostgreSQL" 2 "$pg_two" "$users"
    sq_one=$(night_retrain sq-one 1 "$WORK/night-one.sqlite")
    night_line sq-one "retrain, SQLite" 1 "$sq_one" "$users"
    sq_two=$(night_retrain sq-two 2 "$WORK/night-two.sqlite")
    night_line sq-two "retrain, SQLite" 2 "$sq_two" "$users"

    # Every user retrained once, whatever the number of workers: one successful run each, and none twice.
    local runs database
    for database in night_one night_two; do
        runs=$(psql_run "$database" -Atc "SELECT count(*) || ' ' || count(DISTINCT scope) FROM task_runs
            WHERE identifier = 'ml-retrain' AND outcome = 'success'")
        [ "$runs" = "$users $users" ] || { echo "error: $database has $runs successful retrains (runs, users)" >&2; return 1; }
    done
    for database in night-one night-two; do
        runs=$(sqlite3 "$WORK/$database.sqlite" "SELECT count(*) || ' ' || count(DISTINCT scope) FROM task_runs
            WHERE identifier = 'ml-retrain' AND outcome = 'success'")
        [ "$runs" = "$users $users" ] || { echo "error: $database has $runs successful retrains (runs, users)" >&2; return 1; }
    done
    echo "  every user retrained exactly once in each of the four nights (one successful run per user)"

    # Bytes per user-day after a night: the whole database (days, requests, runs, artifacts) over its days.
    local pg_bytes sq_bytes
    pg_bytes=$(psql_run night_one -Atc "SELECT pg_database_size(current_database())")
    sqlite3 "$WORK/night-one.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    sq_bytes=$(stat -c %s "$WORK/night-one.sqlite")
    printf "  bytes per user-day after the night: PostgreSQL %s, SQLite %s (the whole database over %s user-days)\n" \
        "$(rate "$pg_bytes" "$user_days")" "$(rate "$sq_bytes" "$user_days")" "$user_days"

    # 10 million users: hours for one worker; cores for one hour at the two-worker rate per worker; the disk the
    # same days per user would take.
    local name one two bytes
    for name in PostgreSQL SQLite; do
        if [ "$name" = PostgreSQL ]; then
            one="$pg_one" two="$pg_two" bytes="$pg_bytes"
        else
            one="$sq_one" two="$sq_two" bytes="$sq_bytes"
        fi
        awk -v n="$target" -v users="$users" -v one="$one" -v two="$two" -v name="$name" -v bytes="$bytes" 'BEGIN {
            per_worker = users / two / 2
            cores = n / (per_worker * 3600)
            if (cores > int(cores)) cores = int(cores) + 1
            printf "  10 million users on %s: %.1f h with one worker; %d worker cores for one hour (%.0f users/s per worker with two); %.0f GB\n",
                name, n / (users / one) / 3600, cores, per_worker, bytes * n / users / 1e9
        }'
    done
    printf "  one PostgreSQL worker / one SQLite worker, users/s: %sx; two PostgreSQL workers / one: %sx\n" \
        "$(ratio "$sq_one" "$pg_one")" "$(ratio "$pg_one" "$pg_two")"
    rm -f "$WORK"/night-*.sqlite*
}
