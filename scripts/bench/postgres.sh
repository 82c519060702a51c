# `scripts/bench.sh postgres`: the PostgreSQL backend beside SQLite, in one run, on a throwaway
# cluster (scripts/lib/postgres.sh: a private Unix socket, durability settings off on both sides of
# each comparison). Sourced by bench.sh, which defines PIPELINE, WORK, NOW, USERS, DAYS, seconds,
# ratio and rate.
#
# Figures:
# - ingestion of `generate --users USERS --days DAYS` on SQLite and on PostgreSQL, against psql's
#   \copy of the same rows into a table with the same key (aim: within 2x), and against \copy of every
#   column into pipeline's own daily_logs (what the table's constraints cost any bulk load), BENCH_REPEAT
#   (3) times, each ratio taken within its repetition; `scripts/bench.sh postgres-ingest` measures these alone;
# - a whole `retrain --force` of BENCH_PG_USERS (10,000) users x DAYS, with 1 and 2 worker
#   processes on one database, each process with one job (aim: 2 workers at least 1.5x one): first on a fresh
#   copy of the loaded database, where the launch also starts every user's chains, then on the same databases a
#   day later: the next night, whose chains exist, and whose population is pooled again for its new day (a launch
#   the same day takes the population model the first one stored);
#   and the first night once more with the worker on one core and the server on the other, beside an SQLite
#   worker on that one core: a worker's pace when the server does not share its cores, as on a host of its own;
# - claims per second of 8 concurrent workers (each claim takes one due request and finishes it).

source scripts/lib/postgres.sh

# psql_run DATABASE SQL...: runs SQL on the bench cluster, quietly.
psql_run() {
    local database="$1"
    shift
    psql -X -q -v ON_ERROR_STOP=1 -h "$PIPELINE_TEST_POSTGRES_DIR/socket" -U pipeline -d "$database" "$@"
}

postgres_url() {
    echo "postgresql:///$1?host=$PIPELINE_TEST_POSTGRES_DIR/socket&user=pipeline"
}

# fresh_postgres_database NAME: drops the bench cluster's database NAME if it exists and creates it empty.
fresh_postgres_database() {
    psql_run postgres -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
}

# ingest_seconds PIPELINE DATABASE: the seconds PIPELINE takes to ingest the cohort into a fresh DATABASE.
ingest_seconds() {
    fresh_postgres_database "$2"
    seconds "$1" ingest "$WORK/cohort.jsonl" --db "$(postgres_url "$2")" --now "$NOW"
}

# spread V1 V2 …: "MIN / MEDIAN" of the values.
spread() { min_median "$@" | sed 's| | / |'; }

# The ingestion figures, in BENCH_REPEAT (3) repetitions on the running bench cluster: each ingests the cohort
# with pipeline on SQLite and on PostgreSQL (a fresh database each), then loads the same rows with psql's \copy
# into a bare table and into pipeline's own daily_logs; printed as the min and the median of the times and of
# each repetition's ratios. BENCH_PG_BEFORE names the `pipeline` of another build, which then ingests the same
# input into a database of its own in each repetition, before this build in odd repetitions and after it in even
# ones: a before and after measured side by side.
bench_postgres_ingest_figures() {
    local repeats="${BENCH_REPEAT:-3}" before="${BENCH_PG_BEFORE:-}"
    echo "== postgres: ingestion, $USERS users x $DAYS days ($repeats repetitions)"
    "$PIPELINE" generate --users "$USERS" --days "$DAYS" --now "$NOW" >"$WORK/cohort.jsonl"
    local records
    records=$(wc -l <"$WORK/cohort.jsonl")
    # The rows both baselines load: those an ingestion leaves (a first one, untimed).
    fresh_postgres_database bench_ingest
    "$PIPELINE" ingest "$WORK/cohort.jsonl" --db "$(postgres_url bench_ingest)" --now "$NOW" >/dev/null
    psql_run bench_ingest -c "\\copy (SELECT user_id, day, symptom_severity, mood, energy, hrv, resting_heart_rate,
        step_count, sleep_duration FROM daily_logs) TO '$WORK/rows.csv' CSV"
    psql_run bench_ingest -c "\\copy users TO '$WORK/users.csv' CSV" -c "\\copy daily_logs TO '$WORK/logs.csv' CSV"
    local rows
    rows=$(wc -l <"$WORK/rows.csv")
    local sqlites=() postgres=() earlier=() copies=() tables=() ratios=() table_ratios=() backend_ratios=()
    local earlier_ratios=() run on_sqlite on_postgres on_earlier baseline same_table
    for run in $(seq "$repeats"); do
        rm -f "$WORK/ingest.sqlite"*
        on_sqlite=$(seconds "$PIPELINE" ingest "$WORK/cohort.jsonl" --db "$WORK/ingest.sqlite" --now "$NOW")
        if [ -n "$before" ] && [ $((run % 2)) -eq 1 ]; then on_earlier=$(ingest_seconds "$before" bench_before); fi
        on_postgres=$(ingest_seconds "$PIPELINE" bench_ingest)
        if [ -n "$before" ] && [ $((run % 2)) -eq 0 ]; then on_earlier=$(ingest_seconds "$before" bench_before); fi
        fresh_postgres_database bench_copy
        psql_run bench_copy -c "CREATE TABLE daily_logs (
            user_id TEXT NOT NULL, day TEXT NOT NULL, symptom_severity INTEGER, mood INTEGER, energy INTEGER,
            hrv DOUBLE PRECISION, resting_heart_rate DOUBLE PRECISION, step_count BIGINT,
            sleep_duration DOUBLE PRECISION, PRIMARY KEY (user_id, day))"
        baseline=$(seconds psql -X -q -v ON_ERROR_STOP=1 -h "$PIPELINE_TEST_POSTGRES_DIR/socket" -U pipeline \
            -d bench_copy -c "\\copy daily_logs FROM '$WORK/rows.csv' CSV")
        # The second baseline: \copy of the same rows, every column, into pipeline's own daily_logs (its types,
        # CHECKs, key and the check of each day's user), in a database `pipeline init` created: what the table
        # itself costs a bulk load.
        fresh_postgres_database bench_table
        "$PIPELINE" init --db "$(postgres_url bench_table)" >/dev/null
        psql_run bench_table -c "\\copy users FROM '$WORK/users.csv' CSV"
        same_table=$(seconds psql -X -q -v ON_ERROR_STOP=1 -h "$PIPELINE_TEST_POSTGRES_DIR/socket" -U pipeline \
            -d bench_table -c "\\copy daily_logs FROM '$WORK/logs.csv' CSV")
        sqlites+=("$on_sqlite") postgres+=("$on_postgres") copies+=("$baseline") tables+=("$same_table")
        ratios+=("$(ratio "$on_postgres" "$baseline")") table_ratios+=("$(ratio "$on_postgres" "$same_table")")
        backend_ratios+=("$(ratio "$on_postgres" "$on_sqlite")")
        if [ -n "$before" ]; then earlier+=("$on_earlier") earlier_ratios+=("$(ratio "$on_earlier" "$baseline")"); fi
    done
    printf "  pipeline ingest, SQLite       %9d records in %s s\n" "$records" "$(spread "${sqlites[@]}")"
    if [ -n "$before" ]; then
        printf "  before (%s), PostgreSQL  %9d records in %s s\n" "$(basename "$before")" "$records" \
            "$(spread "${earlier[@]}")"
    fi
    printf "  pipeline ingest, PostgreSQL   %9d records in %s s   (%s records/s at the median)\n" "$records" \
        "$(spread "${postgres[@]}")" "$(rate "$records" "$(min_median "${postgres[@]}" | cut -d' ' -f2)")"
    printf "  psql \\\\copy, PostgreSQL        %9d rows    in %s s\n" "$rows" "$(spread "${copies[@]}")"
    printf "  psql \\\\copy, pipeline's table  %9d rows    in %s s\n" "$rows" "$(spread "${tables[@]}")"
    printf "  time ratio (pipeline on PostgreSQL / psql \\\\copy), min / median: %sx   (aim: at most 2x)\n" \
        "$(spread "${ratios[@]}")"
    if [ -n "$before" ]; then
        printf "  time ratio (before on PostgreSQL / psql \\\\copy), min / median: %sx\n" "$(spread "${earlier_ratios[@]}")"
    fi
    printf "  time ratio (pipeline on PostgreSQL / psql \\\\copy into pipeline's table), min / median: %sx\n" \
        "$(spread "${table_ratios[@]}")"
    printf "  time ratio (PostgreSQL / SQLite ingest), min / median: %sx\n" "$(spread "${backend_ratios[@]}")"
    printf "  each repetition, pipeline / \\\\copy: %s\n" "$(paste -d/ <(printf '%s\n' "${postgres[@]}") \
        <(printf '%s\n' "${copies[@]}") | tr '\n' ' ')"
}

# `scripts/bench.sh postgres-ingest`: the ingestion figures alone, on a cluster of their own.
bench_postgres_ingest() {
    trap 'stop_test_postgres; rm -rf "$WORK"' EXIT
    start_test_postgres
    bench_postgres_ingest_figures
}

# bench_postgres_pinned USERS: the first night of one worker on core 0 with the server (every process of the cluster,
# and the sessions it starts after) on core 1, beside an SQLite worker on core 0 alone, on fresh copies of the loaded
# databases: what a worker does with the cores a host gives it when the server is elsewhere.
bench_postgres_pinned() {
    local users="$1" postmaster pid pg sq
    if [ "$(nproc)" -lt 2 ]; then
        echo "  (one core: the worker and the server cannot each have one)"
        return
    fi
    ensure_packages procps util-linux # pgrep; taskset
    postmaster=$(head -1 "$PIPELINE_TEST_POSTGRES_DIR/data/postmaster.pid")
    # A session that ends between pgrep and taskset is gone, not an error.
    for pid in "$postmaster" $(pgrep -P "$postmaster"); do taskset -p -c 1 "$pid" >/dev/null 2>&1 || true; done
    pg=$(seconds taskset -c 0 "$PIPELINE" retrain --force --jobs 1 --db "$(postgres_url bench_pinned)" --now "$NOW")
    for pid in "$postmaster" $(pgrep -P "$postmaster"); do
        taskset -p -c "0-$(($(nproc) - 1))" "$pid" >/dev/null 2>&1 || true
    done
    sq=$(seconds taskset -c 0 "$PIPELINE" retrain --force --jobs 1 --db "$WORK/pinned.sqlite" --now "$NOW")
    echo "  the same first night, each worker on core 0 and the server on core 1:"
    printf "  PostgreSQL, 1 worker    %7.2f s  %7s users/s\n" "$pg" "$(rate "$users" "$pg")"
    printf "  SQLite,     1 worker    %7.2f s  %7s users/s\n" "$sq" "$(rate "$users" "$sq")"
    printf "  one worker on one core, PostgreSQL / SQLite users/s: %sx\n" "$(ratio "$sq" "$pg")"
}

bench_postgres() {
    local big="${BENCH_PG_USERS:-10000}" workers="${BENCH_PG_WORKERS:-8}" requests="${BENCH_PG_CLAIMS:-20000}"
    swift build -c release --product claim-bench >&2
    local claims_bench="$PWD/.build/release/claim-bench"
    trap 'stop_test_postgres; rm -rf "$WORK"' EXIT
    start_test_postgres

    bench_postgres_ingest_figures

    echo "== postgres: retrain --force, $big users x $DAYS days, 1 and 2 worker processes (one job each)"
    "$PIPELINE" generate --users "$big" --days "$DAYS" --now "$NOW" >"$WORK/big.jsonl"
    psql_run postgres -c "CREATE DATABASE bench_source"
    local load_postgres load_sqlite
    load_postgres=$(seconds "$PIPELINE" ingest "$WORK/big.jsonl" --db "$(postgres_url bench_source)" --now "$NOW")
    load_sqlite=$(seconds "$PIPELINE" ingest "$WORK/big.jsonl" --db "$WORK/source.sqlite" --now "$NOW")
    rm -f "$WORK/big.jsonl"
    printf "  (loading %d users: %.1f s on PostgreSQL, %.1f s on SQLite)\n" "$big" "$load_postgres" "$load_sqlite"
    psql_run postgres -c "CREATE DATABASE bench_one TEMPLATE bench_source" -c "CREATE DATABASE bench_two TEMPLATE bench_source" \
        -c "CREATE DATABASE bench_pinned TEMPLATE bench_source"
    cp "$WORK/source.sqlite" "$WORK/one.sqlite"
    cp "$WORK/source.sqlite" "$WORK/two.sqlite"
    cp "$WORK/source.sqlite" "$WORK/pinned.sqlite"

    local pg_one pg_two sq_one sq_two
    pg_one=$(seconds "$PIPELINE" retrain --force --jobs 1 --db "$(postgres_url bench_one)" --now "$NOW")
    pg_two=$(seconds bash -c "'$PIPELINE' retrain --force --jobs 1 --db '$(postgres_url bench_two)' --now $NOW &
        '$PIPELINE' retrain --force --jobs 1 --db '$(postgres_url bench_two)' --now $NOW & wait")
    sq_one=$(seconds "$PIPELINE" retrain --force --jobs 1 --db "$WORK/one.sqlite" --now "$NOW")
    sq_two=$(seconds bash -c "'$PIPELINE' retrain --force --jobs 1 --db '$WORK/two.sqlite' --now $NOW &
        '$PIPELINE' retrain --force --jobs 1 --db '$WORK/two.sqlite' --now $NOW & wait")
    local trained
    trained=$(psql_run bench_two -Atc "SELECT count(*) FROM task_runs WHERE identifier = 'ml-retrain' AND outcome = 'success'")
    printf "  PostgreSQL, 1 worker    %7.2f s  %7s users/s\n" "$pg_one" "$(rate "$big" "$pg_one")"
    printf "  PostgreSQL, 2 workers   %7.2f s  %7s users/s   speed-up %sx   (aim: at least 1.8x)\n" \
        "$pg_two" "$(rate "$big" "$pg_two")" "$(ratio "$pg_one" "$pg_two")"
    printf "  SQLite,     1 worker    %7.2f s  %7s users/s\n" "$sq_one" "$(rate "$big" "$sq_one")"
    printf "  SQLite,     2 workers   %7.2f s  %7s users/s   speed-up %sx\n" \
        "$sq_two" "$(rate "$big" "$sq_two")" "$(ratio "$sq_one" "$sq_two")"
    printf "  (2 PostgreSQL workers ran %s successful retrains for %d users)\n" "$trained" "$big"
    printf "  one worker, PostgreSQL / SQLite users/s: %sx   (aim: at least 0.9x)\n" "$(ratio "$sq_one" "$pg_one")"
    bench_postgres_pinned "$big"
    # The next night on the same databases: the chains exist, so the launch starts none, and the population is
    # pooled again for the new day, as every night's first launch pools it.
    local next
    next=$(date -u -d "$NOW + 1 day" +%Y-%m-%dT%H:%M:%SZ)
    pg_one=$(seconds "$PIPELINE" retrain --force --jobs 1 --db "$(postgres_url bench_one)" --now "$next")
    pg_two=$(seconds bash -c "'$PIPELINE' retrain --force --jobs 1 --db '$(postgres_url bench_two)' --now $next &
        '$PIPELINE' retrain --force --jobs 1 --db '$(postgres_url bench_two)' --now $next & wait")
    sq_one=$(seconds "$PIPELINE" retrain --force --jobs 1 --db "$WORK/one.sqlite" --now "$next")
    sq_two=$(seconds bash -c "'$PIPELINE' retrain --force --jobs 1 --db '$WORK/two.sqlite' --now $next &
        '$PIPELINE' retrain --force --jobs 1 --db '$WORK/two.sqlite' --now $next & wait")
    echo "  the next night, on the same databases ($next: the chains exist; the population is pooled again):"
    printf "  PostgreSQL, 1 worker    %7.2f s  %7s users/s\n" "$pg_one" "$(rate "$big" "$pg_one")"
    printf "  PostgreSQL, 2 workers   %7.2f s  %7s users/s   speed-up %sx\n" \
        "$pg_two" "$(rate "$big" "$pg_two")" "$(ratio "$pg_one" "$pg_two")"
    printf "  SQLite,     1 worker    %7.2f s  %7s users/s\n" "$sq_one" "$(rate "$big" "$sq_one")"
    printf "  SQLite,     2 workers   %7.2f s  %7s users/s   speed-up %sx\n" \
        "$sq_two" "$(rate "$big" "$sq_two")" "$(ratio "$sq_one" "$sq_two")"
    printf "  one worker, PostgreSQL / SQLite users/s: %sx   (aim: at least 0.9x)\n" "$(ratio "$sq_one" "$pg_one")"

    local batch="${BENCH_PG_CLAIM_BATCH:-32}"
    echo "== postgres: claims, $workers concurrent workers, $requests due requests, one request per claim and $batch"
    echo "   per claim (each batch's runs recorded in one transaction, as a launch's worker records them)"
    local size
    for size in 1 "$batch"; do
        psql_run postgres -c "DROP DATABASE IF EXISTS bench_claims" -c "CREATE DATABASE bench_claims"
        rm -f "$WORK"/claims.sqlite*
        "$claims_bench" seed "$(postgres_url bench_claims)" "$requests"
        "$claims_bench" seed "$WORK/claims.sqlite" "$requests"
        # Statistics as autovacuum keeps them on a live queue (a table analyzed while empty is planned as one).
        psql_run bench_claims -qc "VACUUM ANALYZE"
        sqlite3 "$WORK/claims.sqlite" "ANALYZE"
        local pg_claims sq_claims
        local command="" index
        for index in $(seq "$workers"); do
            command+="'$claims_bench' work '$(postgres_url bench_claims)' w$index $size & "
        done
        pg_claims=$(seconds bash -c "$command wait")
        command=""
        for index in $(seq "$workers"); do command+="'$claims_bench' work '$WORK/claims.sqlite' w$index $size & "; done
        sq_claims=$(seconds bash -c "$command wait")
        # Exactly once: one finished, successful run per request, and no request left.
        local once
        once=$(psql_run bench_claims -Atc "SELECT count(DISTINCT request_id) = $requests AND count(*) = $requests
            AND bool_and(outcome = 'success') AND NOT EXISTS (SELECT 1 FROM task_requests) FROM task_runs")
        printf "  %2d per claim: PostgreSQL %8s requests/s   SQLite %8s requests/s   ratio %sx   (each run exactly once: %s)\n" \
            "$size" "$(rate "$requests" "$pg_claims")" "$(rate "$requests" "$sq_claims")" \
            "$(ratio "$sq_claims" "$pg_claims")" "$([ "$once" = t ] && echo yes || echo NO)"
    done
    echo "  (aim: at least 10,000 requests/s on PostgreSQL with $workers workers, batched)"
}
