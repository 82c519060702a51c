# `scripts/bench.sh retention`: what pruning the run history costs a launch, and what a retrain does to the
# requests table, on a throwaway PostgreSQL cluster (scripts/lib/postgres.sh) and on SQLite. Sourced by bench.sh,
# which defines PIPELINE, WORK, NOW, seconds, ratio and rate; scripts/bench/postgres.sh defines psql_run,
# postgres_url and fresh_postgres_database.
#
# Figures:
# - the prune step of a launch (`Store.pruneHistory`'s statements, in one transaction, timed by the server) with
#   BENCH_RETENTION_SMALL (10,000) and BENCH_RETENTION_LARGE (1,000,000) finished runs older than the retention,
#   spread over 30 days, and the launch around it (`pipeline run` of 10 users, whose runs make it prune);
# - on PostgreSQL, the requests table's updates and how many were HOT (pg_stat_user_tables) over
#   `retrain --force` of BENCH_RETENTION_USERS (2,000) users.

# seed_history DATABASE COUNT: COUNT finished runs of 1,000 users' chains, over the 30 days that end 31 days before
# NOW (older than the default retention), as launches would have written them; the planner's statistics taken.
seed_history() {
    local database="$1" count="$2" first span
    first=$(($(date -d "$NOW" +%s) * 1000 - 61 * 86400000))
    span=$((30 * 86400000))
    if [[ "$database" == postgresql* ]]; then
        psql -X -q -v ON_ERROR_STOP=1 "$database" <<SQL
SELECT prepare_task_run_partitions($first, 31);
INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
    finished_at, outcome, successor_pending, periods)
SELECT g, 'health-refresh', 'u' || (g % 1000), 'refresh', 1, 'bench', $first + g * ($span / $count),
    $first + g * ($span / $count) + 600000, $first + g * ($span / $count) + 1000, 'success', true, 1
FROM generate_series(1, $count) AS g;
ANALYZE task_runs;
SQL
    else
        sqlite3 "$database" <<SQL
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $count)
INSERT INTO task_runs (request_id, identifier, scope, kind, attempt, worker, started_at, lease_expires_at,
    finished_at, outcome, successor_pending, periods)
SELECT n, 'health-refresh', 'u' || (n % 1000), 'refresh', 1, 'bench', $first + n * ($span / $count),
    $first + n * ($span / $count) + 600000, $first + n * ($span / $count) + 1000, 'success', 1, 1
FROM g;
ANALYZE;
SQL
    fi
}

# prune_step_ms DATABASE: milliseconds of the prune step's statements as a launch at NOW with a retention of 30 days
# and its default limit (1,000) runs them, in one transaction; rolled back, so the history stays for the next run.
prune_step_ms() {
    local database="$1" before runs
    before=$(($(date -d "$NOW" +%s) * 1000 - 30 * 86400000))
    # What is deleted row by row: on PostgreSQL only the runs of the default partition, the days are dropped.
    runs=task_runs
    [[ "$database" == postgresql* ]] && runs=task_runs_default
    local rows="
DELETE FROM $runs WHERE id IN (
    SELECT id FROM $runs WHERE finished_at IS NOT NULL AND finished_at < $before ORDER BY finished_at LIMIT 1000);
DELETE FROM outbox WHERE id IN (
    SELECT id FROM outbox WHERE acknowledged_at IS NOT NULL AND acknowledged_at < $before
    ORDER BY acknowledged_at LIMIT 1000);
ROLLBACK;"
    if [[ "$database" == postgresql* ]]; then
        printf '\\timing on\nBEGIN;\nSELECT drop_task_run_partitions(%s);%s\n' "$before" "$rows" |
            psql -X -q -v ON_ERROR_STOP=1 "$database" | awk '/^Time:/ { total += $2 } END { printf "%.1f", total }'
    else
        printf '.timer on\nBEGIN IMMEDIATE;%s\n' "$rows" |
            sqlite3 "$database" | awk '/^Run Time:/ { total += $4 } END { printf "%.1f", total * 1000 }'
    fi
}

# retention_database BACKEND NAME COUNT: a database of 10 generated users with COUNT runs of old history; its address.
# (An SQLite file, or a PostgreSQL database that copy_of copies.)
retention_database() {
    local backend="$1" name="$2" count="$3" address
    if [ "$backend" = postgresql ]; then
        fresh_postgres_database "$name" >/dev/null 2>&1
        address=$(postgres_url "$name")
    else
        address="$WORK/$name.sqlite"
        rm -f "$address"*
    fi
    "$PIPELINE" ingest "$WORK/retention-cohort.jsonl" --db "$address" --now "$NOW" >/dev/null
    seed_history "$address" "$count" >/dev/null
    echo "$address"
}

# copy_of ADDRESS COPY: a copy of the database at ADDRESS, named COPY; its address.
copy_of() {
    if [[ "$1" == postgresql* ]]; then
        local source="${1#postgresql:///}"
        source="${source%%\?*}"
        psql_run postgres -c "DROP DATABASE IF EXISTS $2" -c "CREATE DATABASE $2 TEMPLATE $source" >/dev/null 2>&1
        postgres_url "$2"
    else
        rm -f "$WORK/$2.sqlite"*
        cp "$1" "$WORK/$2.sqlite"
        echo "$WORK/$2.sqlite"
    fi
}

bench_retention() {
    local small="${BENCH_RETENTION_SMALL:-10000}" large="${BENCH_RETENTION_LARGE:-1000000}"
    local cohort="${BENCH_RETENTION_USERS:-2000}" repeats="${BENCH_REPEAT:-3}"
    trap 'stop_test_postgres; rm -rf "$WORK"' EXIT
    start_test_postgres
    "$PIPELINE" generate --users 10 --days 30 --now "$NOW" >"$WORK/retention-cohort.jsonl"

    echo "== retention: the prune step of a launch with $small and $large finished runs older than the retention"
    echo "   (ms, min / median of $repeats; then a whole 'pipeline run' of 10 users that prunes, s)"
    local backend
    for backend in postgresql sqlite; do
        local few many few_ms=() many_ms=() run_few=() run_many=() copy
        few=$(retention_database "$backend" retention_few "$small")
        many=$(retention_database "$backend" retention_many "$large")
        for _ in $(seq "$repeats"); do
            few_ms+=("$(prune_step_ms "$few")")
            many_ms+=("$(prune_step_ms "$many")")
            copy=$(copy_of "$few" retention_launch)
            run_few+=("$(seconds "$PIPELINE" run --db "$copy" --now "$NOW")")
            copy=$(copy_of "$many" retention_launch)
            run_many+=("$(seconds "$PIPELINE" run --db "$copy" --now "$NOW")")
        done
        local left
        if [ "$backend" = postgresql ]; then
            left=$(psql -X -Atc "SELECT count(*) FROM task_runs WHERE worker = 'bench'" "$copy")
        else
            left=$(sqlite3 "$copy" "SELECT count(*) FROM task_runs WHERE worker = 'bench'")
        fi
        local median_many median_few
        median_many=$(min_median "${many_ms[@]}" | cut -d' ' -f2)
        median_few=$(min_median "${few_ms[@]}" | cut -d' ' -f2)
        printf "  %-10s prune step %s ms with %s old runs, %s ms with %s: %sx at the median\n" "$backend" \
            "$(min_median "${many_ms[@]}" | sed 's| | / |')" "$large" "$(min_median "${few_ms[@]}" | sed 's| | / |')" \
            "$small" "$(ratio "$median_many" "$median_few")"
        median_many=$(min_median "${run_many[@]}" | cut -d' ' -f2)
        median_few=$(min_median "${run_few[@]}" | cut -d' ' -f2)
        printf "  %-10s the launch %s s against %s s: %sx at the median; old runs it left: %s of %s\n" "" \
            "$(min_median "${run_many[@]}" | sed 's| | / |')" "$(min_median "${run_few[@]}" | sed 's| | / |')" \
            "$(ratio "$median_many" "$median_few")" "$left" "$large"
    done

    echo "== retention: the requests table over 'retrain --force' of $cohort users (PostgreSQL, pg_stat_user_tables)"
    "$PIPELINE" generate --users "$cohort" --days 60 --now "$NOW" >"$WORK/retention-retrain.jsonl"
    fresh_postgres_database retention_hot >/dev/null 2>&1
    local hot
    hot=$(postgres_url retention_hot)
    "$PIPELINE" ingest "$WORK/retention-retrain.jsonl" --db "$hot" --now "$NOW" >/dev/null
    "$PIPELINE" retrain --db "$hot" --now "$NOW" >/dev/null
    local statistics="SELECT relname, n_tup_upd, n_tup_hot_upd, n_tup_del, pg_relation_size(relid) / 8192
        FROM pg_stat_user_tables WHERE relname IN ('task_requests', 'latest_task_runs') ORDER BY relname"
    psql -X -q "$hot" -c "SELECT pg_stat_reset()" >/dev/null
    "$PIPELINE" retrain --force --db "$hot" --now "$NOW" >/dev/null
    psql -X -q -A -F ' ' -t "$hot" -c "$statistics" | awk 'NF == 5 {
        printf "  %-17s updates %7d, of them HOT %7d (%.0f%%); deletes %7d; %d pages\n", $1, $2, $3,
            ($2 > 0 ? 100 * $3 / $2 : 0), $4, $5 }'
}
